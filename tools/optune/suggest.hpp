// Names what the command line got wrong: an unknown subcommand or option, with
// the closest valid spelling (CLI11 2.1 says only "A subcommand is required"
// or "The following arguments were not expected").
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace optune::tool {

// Edits (insert, delete, substitute, swap two neighbours) from a to b.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to word, if it is close enough to be a likely typo.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates);

// Walks argv as CLI11 would and returns a message for the first word that no
// subcommand or option of the command reached so far knows, e.g.
// "unknown command 'bnech'; did you mean 'bench'?"; nullopt when every word
// is known (the error is then CLI11's own). Only called once parsing failed.
std::optional<std::string> diagnose_unknown(const CLI::App& app, int argc, const char* const* argv);

}  // namespace optune::tool
