#include "suggest.hpp"

#include <algorithm>
#include <numeric>

namespace optune::tool {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: Levenshtein plus the swap of two neighbours,
  // the commonest typo ("bnech").
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_d = 0;
  for (const std::string& c : candidates) {
    // A prefix of one name only ("--gemm-si") is as good as a typo of one edit.
    const bool prefix = word.size() >= 3 && c.starts_with(word);
    const std::size_t d = prefix ? 1 : edit_distance(word, c);
    if (!best || d < best_d) best = c, best_d = d;
  }
  // Close enough: at most a third of the word's letters changed (and at least one allowed).
  if (best && best_d <= std::max<std::size_t>(1, word.size() / 3)) return best;
  return std::nullopt;
}

namespace {

std::string command_path(const CLI::App* app) {
  // The root's name is argv[0] as typed ("./optune"): say "optune".
  std::string path;
  for (const CLI::App* a = app; a->get_parent(); a = a->get_parent()) path = " " + a->get_name() + path;
  return "optune" + path;
}

// Visible subcommands and long options (the hidden ones, group "", are
// internal or old spellings: never suggested, still accepted).
std::vector<std::string> subcommand_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::App* s : app->get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    names.push_back(s->get_name());
  return names;
}

std::vector<std::string> option_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app->get_options([](const CLI::Option* o) { return !o->get_group().empty(); })) {
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

const CLI::App* find_subcommand(const CLI::App* app, const std::string& name) {
  for (const CLI::App* s : app->get_subcommands([](const CLI::App*) { return true; }))
    if (s->check_name(name)) return s;
  return nullptr;
}

const CLI::Option* find_option(const CLI::App* app, const std::string& name) {
  for (const CLI::App* a = app; a; a = a->get_parent())
    if (const CLI::Option* o = a->get_option_no_throw(name)) return o;
  return nullptr;
}

std::string with_suggestion(std::string message, const std::string& word, const std::vector<std::string>& names) {
  if (auto s = closest(word, names)) message += "; did you mean '" + *s + "'?";
  return message;
}

}  // namespace

std::optional<std::string> diagnose_unknown(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* cur = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string tok = argv[i];
    if (tok == "--") return std::nullopt;  // the rest are positionals
    if (tok.size() > 1 && tok[0] == '-' && !(std::isdigit(static_cast<unsigned char>(tok[1])) || tok[1] == '.')) {
      const bool is_long = tok.starts_with("--");
      const std::size_t eq = tok.find('=');
      const std::string name = is_long ? tok.substr(0, eq) : tok.substr(0, 2);
      const CLI::Option* o = find_option(cur, name);
      if (!o)
        return with_suggestion("unknown option '" + name + "' for '" + command_path(cur) + "'", name,
                               option_names(cur));
      // Its values: one token, or every following word for an option of several.
      const bool inline_value = is_long ? eq != std::string::npos : tok.size() > 2;
      if (o->get_type_size() != 0 && !inline_value) {
        const bool several = o->get_expected_max() > 1;
        do ++i;
        while (several && i + 1 < argc && argv[i + 1][0] != '-' && !find_subcommand(cur, argv[i + 1]));
      }
      continue;
    }
    if (const CLI::App* sub = find_subcommand(cur, tok)) {
      cur = sub;
      continue;
    }
    if (!cur->get_options([](const CLI::Option* o) { return o->get_positional(); }).empty())
      continue;  // a positional value: CLI11 checks it and names it itself
    if (!cur->get_subcommands([](const CLI::App*) { return true; }).empty())
      return with_suggestion(std::string("unknown command '") + tok + "'" +
                                 (cur == &app ? "" : " for '" + command_path(cur) + "'"),
                             tok, subcommand_names(cur));
    return "unexpected argument '" + tok + "' for '" + command_path(cur) + "'";
  }
  return std::nullopt;
}

}  // namespace optune::tool
