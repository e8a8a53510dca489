// cli/parse_args.h - runs a subcommand's CLI11 parser over its arguments with the tool's exit codes.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace rocref::cli {

// -1: parsed, go on; otherwise the exit status: 0 after --help, 2 on a bad or missing option.
inline int parse_args(CLI::App& app, const std::vector<std::string>& args) {
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes a vector last-first
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: %s\n%s", app.get_name().c_str(), e.what(), app.help().c_str());
    return 2;
  }
  return -1;
}

}  // namespace rocref::cli
