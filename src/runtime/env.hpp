// The one way optune reads its environment variables. Values are parsed
// strictly: a number must be the whole string, finite and within its range;
// a choice must be one of its words (any case). Anything else gets one
// warning naming the variable, the value and what is accepted, and the
// default is used.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace optune::detail {

// The variable, or fallback when unset or empty.
std::string env_or(const char* name, const std::string& fallback);

// A number in [lo, hi]; fallback (with one warning) when the value is not
// one: "inf", "1e400", "-5", "12abc", " 7" are all refused.
double env_number(const char* name, double fallback, double lo, double hi);

// One of accepted, compared without case, returned as spelled in accepted;
// fallback when unset or empty, and (with one warning) when unknown.
std::string env_choice(const char* name, std::initializer_list<std::string_view> accepted,
                       const std::string& fallback);

// Writes message as a warning the first time key is seen in this process;
// later calls with the same key say nothing. For every "this value was
// dropped" warning that a repeated read would otherwise repeat
// (OPTUNE_PARAMS entries, environment values).
void warn_once(const std::string& key, const std::string& message);

}  // namespace optune::detail
