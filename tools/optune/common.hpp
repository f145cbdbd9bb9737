// Shared pieces of the optune command-line tool.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "optune/runtime.hpp"

namespace optune::tool {

nlohmann::json caps_to_json(const Capabilities& c);
// Device from --device, else OPTUNE_DEVICE / the default rule.
Device pick_device(const std::string& spec);

struct Timing {
  double median_s = 0, min_s = 0, max_s = 0;
  int runs = 0;
  // The kernel parameters the timed calls used and where they came from (the
  // tuning database's level and source), one entry per family and bucket.
  nlohmann::json parameters = nlohmann::json::array();
  std::string parameters_text;  // "elementwise VW=4 WGS=256 (default)", "; "-separated
};
// Warm-up, then the median of `runs` device-timed executions of fn.
Timing time_events(const std::function<Event()>& fn, int warmup, int runs);

// True when only is empty or name contains one of its strings (--only).
bool selected(const std::string& name, const std::vector<std::string>& only);

std::string iso_date();
std::string git_commit();

}  // namespace optune::tool
