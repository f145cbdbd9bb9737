// OPTUNE_LOG=warn|info|debug (default warn), written to stderr.
#pragma once

#include <string>

namespace optune::detail {

enum class LogLevel : int { Off = 0, Warn = 1, Info = 2, Debug = 3 };

LogLevel log_level();
void log_write(LogLevel level, const std::string& message);
inline bool log_enabled(LogLevel level) { return static_cast<int>(level) <= static_cast<int>(log_level()); }

inline void log_warn(const std::string& m) { log_write(LogLevel::Warn, m); }
inline void log_info(const std::string& m) { if (log_enabled(LogLevel::Info)) log_write(LogLevel::Info, m); }
inline void log_debug(const std::string& m) { if (log_enabled(LogLevel::Debug)) log_write(LogLevel::Debug, m); }

// Environment variable or fallback when unset or empty.
std::string env_or(const char* name, const std::string& fallback);

}  // namespace optune::detail
