#include "runtime/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string_view>

namespace optune::detail {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return (v && *v) ? std::string(v) : fallback;
}

LogLevel log_level() {
  // Read every time: tests and tools change it at run time; getenv is cheap.
  std::string v = env_or("OPTUNE_LOG", "warn");
  if (v == "off" || v == "none" || v == "0") return LogLevel::Off;
  if (v == "info") return LogLevel::Info;
  if (v == "debug") return LogLevel::Debug;
  return LogLevel::Warn;
}

void log_write(LogLevel level, const std::string& message) {
  if (!log_enabled(level)) return;
  static std::mutex mu;
  std::string_view tag = level == LogLevel::Warn ? "warn" : level == LogLevel::Info ? "info" : "debug";
  std::lock_guard lock(mu);
  std::fprintf(stderr, "optune[%.*s]: %s\n", int(tag.size()), tag.data(), message.c_str());
}

}  // namespace optune::detail
