#include "runtime/env.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>

#include "runtime/log.hpp"

namespace optune::detail {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

}  // namespace

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return (v && *v) ? std::string(v) : fallback;
}

double env_number(const char* name, double fallback, double lo, double hi) {
  const std::string v = env_or(name, "");
  if (v.empty()) return fallback;
  const char* s = v.c_str();
  char* end = nullptr;
  errno = 0;
  // No leading space, sign or not: strtod would skip the space.
  const double x = (*s == ' ' || *s == '\t' || *s == '\n') ? NAN : std::strtod(s, &end);
  const bool whole = end && end != s && *end == '\0';
  if (!whole || errno == ERANGE || !std::isfinite(x) || x < lo || x > hi) {
    warn_once(std::string(name) + "=" + v, std::string(name) + "='" + v + "' is not a number from " +
                                               number_text(lo) + " to " + number_text(hi) + "; using " +
                                               number_text(fallback));
    return fallback;
  }
  return x;
}

std::string env_choice(const char* name, std::initializer_list<std::string_view> accepted,
                       const std::string& fallback) {
  const std::string v = env_or(name, "");
  if (v.empty()) return fallback;
  const std::string l = lower(v);
  std::string list;
  for (std::string_view a : accepted) {
    if (lower(a) == l) return std::string(a);
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  warn_once(std::string(name) + "=" + v,
            std::string(name) + "='" + v + "' is not one of " + list + "; using " + fallback);
  return fallback;
}

void warn_once(const std::string& key, const std::string& message) {
  static std::mutex mu;
  static std::set<std::string>* seen = new std::set<std::string>;  // never destroyed: used at exit
  {
    std::lock_guard lock(mu);
    if (!seen->insert(key).second) return;
  }
  // Outside the lock: writing a warning reads OPTUNE_LOG, which may itself
  // warn once (and then finds its key already here).
  log_warn(message);
}

}  // namespace optune::detail
