// cli/main.cpp - the rocref command-line tool: `rocref <command> [options]`.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"

namespace rocref::cli {
namespace {
std::vector<Command>& registry() {
  static std::vector<Command> table;
  return table;
}
}  // namespace

const std::vector<Command>& commands() { return registry(); }

CommandRegistration::CommandRegistration(std::string_view name, std::string_view summary, CommandMain run) {
  registry().push_back(Command{name, summary, run});
}

}  // namespace rocref::cli

namespace {
int usage(FILE* out) {
  std::fprintf(out, "usage: rocref <command> [options]\n\ncommands:\n");
  for (const auto& c : rocref::cli::commands()) {
    std::fprintf(out, "  %-10.*s %.*s\n", int(c.name.size()), c.name.data(), int(c.summary.size()), c.summary.data());
  }
  std::fprintf(out, "\n`rocref <command> --help` describes a command's options.\n");
  return out == stdout ? 0 : 2;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage(stderr);
  const std::string name = argv[1];
  if (name == "-h" || name == "--help" || name == "help") return usage(stdout);
  for (const auto& c : rocref::cli::commands()) {
    if (c.name == name) return c.run(std::vector<std::string>(argv + 2, argv + argc));
  }
  std::fprintf(stderr, "rocref: unknown command '%s'\n\n", name.c_str());
  return usage(stderr);
}
