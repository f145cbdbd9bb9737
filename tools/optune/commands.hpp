// Subcommands of the optune tool; each registers itself on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace optune::tool {

void add_info_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_tune_command(CLI::App& app);
void add_db_command(CLI::App& app);
void add_warm_command(CLI::App& app);

}  // namespace optune::tool
