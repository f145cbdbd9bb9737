#include "runtime/log.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string_view>

namespace optune::detail {

std::string number_text(double v) {
  char buf[32];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {  // whole numbers in full: 3600000, not 3.6e+06
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.17g", v);
  for (int digits = 1; digits <= 17; ++digits) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, v);
    if (std::strtod(shorter, nullptr) == v) return shorter;
  }
  return buf;
}

LogLevel log_level() {
  // Read every time: tests and tools change it at run time; getenv is cheap.
  const std::string v = env_choice("OPTUNE_LOG", {"warn", "info", "debug", "off", "none", "0"}, "warn");
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
