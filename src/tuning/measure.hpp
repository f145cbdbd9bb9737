// Measuring and verifying one configuration of a tuning case: the part of
// the tuner that touches the device. Strategies never see it; the database's
// trust check reuses the verification.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "tuning/cases/cases.hpp"

namespace optune::detail {

// "" when out matches ref; else why not. Relative max error:
// max|out - ref| / max|ref| <= tolerance over the finite elements; with
// tolerance 0 every element must be equal. NaN and infinity positions (and
// the signs of the infinities) must match exactly.
std::string compare_outputs(const std::vector<double>& ref, const std::vector<double>& out, double tolerance);

double median_of(std::vector<double> v);
// Relative spread of repeated timings: (p75 - p25) / median, at least 1%.
double relative_noise(std::vector<double> v);

// A short reason from an exception: the first error line of a build log.
std::string short_reason(const std::exception& e);

struct Measurement {
  enum class Outcome { Ok, Abandoned, Invalid } outcome = Outcome::Invalid;
  std::string stage, reason;  // for Invalid
  double median = std::numeric_limits<double>::infinity();  // seconds; the first timed run when abandoned
  std::vector<double> times;
};

class Measurer {
 public:
  Measurer(TuningCase& c, int warmup, int runs) : case_(c), warmup_(warmup), runs_(runs < 1 ? 1 : runs) {}

  // Runs p once on poisoned outputs and returns the output; throws what the
  // run throws. The default configuration's output is the reference.
  std::vector<double> reference(const Params& p);
  // Times p without verification (the default, for its noise): warm-up, then runs.
  Measurement time(const Params& p, int runs);
  // Verifies p against ref, then times it. Abandons when the first timed run
  // exceeds abandon_above; marks a time-out when any run exceeds timeout.
  Measurement measure(const Params& p, const std::vector<double>& ref, double abandon_above, double timeout);

 private:
  TuningCase& case_;
  int warmup_, runs_;
};

// The trust check of shipped and imported entries: runs params and the
// family's defaults on `problem` and compares them. "" when they agree.
std::string verify_against_default(const Queue& queue, const KernelFamily& family, const Problem& problem,
                                   const Params& params);

}  // namespace optune::detail
