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
// How time_events issues its timed runs. BackToBack (the default) enqueues
// all of them before reading any event, so that each run's device work
// follows the previous run's on a busy queue: a run is timed from the end of
// the one before it to its own end, as in a program that issues one call
// after another. Isolated waits for each run before enqueuing the next, so
// that every run starts on an idle device: on CUDA, whose events are
// commands of the stream, a run's time then also holds the host's launch
// latency (about 4 us on the H100 and H200), which OpenCL's profiling
// timestamps (the command's own start and end) leave out either way.
enum class TimingMode { BackToBack, Isolated };
void set_timing_mode(TimingMode m);
TimingMode timing_mode();
const char* timing_mode_name(TimingMode m);
// Warm-up (each run waited for), then the median of `runs` device-timed
// executions of fn, issued as timing_mode() says.
Timing time_events(const std::function<Event()>& fn, int warmup, int runs);

// True when only is empty or name contains one of its strings (--only).
bool selected(const std::string& name, const std::vector<std::string>& only);

std::string iso_date();
std::string git_commit();

}  // namespace optune::tool
