// cli/command.h - subcommands of the rocref tool register themselves here.
//
// Each subcommand lives in its own <name>_command.cpp and defines one
// `static const CommandRegistration`; main.cpp dispatches by name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rocref::cli {

using CommandMain = int (*)(const std::vector<std::string>& args);

struct Command {
  std::string_view name;
  std::string_view summary;
  CommandMain run;
};

const std::vector<Command>& commands();

struct CommandRegistration {
  CommandRegistration(std::string_view name, std::string_view summary, CommandMain run);
};

}  // namespace rocref::cli
