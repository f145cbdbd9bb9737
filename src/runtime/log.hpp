// OPTUNE_LOG=warn|info|debug|off (default warn, any case), written to stderr.
#pragma once

#include <string>

#include "runtime/env.hpp"  // env_or and the other readers of OPTUNE_*

namespace optune::detail {

enum class LogLevel : int { Off = 0, Warn = 1, Info = 2, Debug = 3 };

LogLevel log_level();
void log_write(LogLevel level, const std::string& message);
inline bool log_enabled(LogLevel level) { return static_cast<int>(level) <= static_cast<int>(log_level()); }

// v for messages: whole numbers in full (4294967301, 3600000), others in the
// shortest form that reads back as v (0.1, 1.5e-07).
std::string number_text(double v);

inline void log_warn(const std::string& m) { log_write(LogLevel::Warn, m); }
inline void log_info(const std::string& m) { if (log_enabled(LogLevel::Info)) log_write(LogLevel::Info, m); }
inline void log_debug(const std::string& m) { if (log_enabled(LogLevel::Debug)) log_write(LogLevel::Debug, m); }

}  // namespace optune::detail
