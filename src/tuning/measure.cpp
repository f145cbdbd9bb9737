#include "tuning/measure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace optune::detail {

namespace {

std::string format_value(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// The class of a non-finite value: NaN, +inf, -inf or finite.
int special_class(double v) {
  if (std::isnan(v)) return 1;
  if (std::isinf(v)) return v > 0 ? 2 : 3;
  return 0;
}

// Percentile with linear interpolation; v sorted, non-empty.
double percentile(const std::vector<double>& v, double q) {
  const double pos = q * double(v.size() - 1);
  const std::size_t i = std::size_t(pos);
  const double frac = pos - double(i);
  return i + 1 < v.size() ? v[i] * (1 - frac) + v[i + 1] * frac : v[i];
}

}  // namespace

std::string compare_outputs(const std::vector<double>& ref, const std::vector<double>& out, double tolerance) {
  if (ref.size() != out.size())
    return "output has " + std::to_string(out.size()) + " elements, the default's " + std::to_string(ref.size());
  double scale = 0;
  for (double r : ref)
    if (std::isfinite(r)) scale = std::max(scale, std::fabs(r));
  double worst = 0;
  std::size_t worst_at = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const int a = special_class(ref[i]), b = special_class(out[i]);
    if (a != b || (a == 0 && tolerance == 0 && ref[i] != out[i]))
      return "element " + std::to_string(i) + " is " + format_value(out[i]) + ", the default gives " +
             format_value(ref[i]);
    if (a == 0) {
      const double err = std::fabs(out[i] - ref[i]);
      if (err > worst) worst = err, worst_at = i;
    }
  }
  // Relative to the largest magnitude: element-wise relative error is
  // meaningless next to zeros, and reductions differ by rounding anyway.
  const double rel = scale > 0 ? worst / scale : worst;
  if (tolerance > 0 && rel > tolerance)
    return "relative error " + format_value(rel) + " at element " + std::to_string(worst_at) + " exceeds " +
           format_value(tolerance) + " (" + format_value(out[worst_at]) + " vs " + format_value(ref[worst_at]) + ")";
  return "";
}

double median_of(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::infinity();
  std::sort(v.begin(), v.end());
  return percentile(v, 0.5);
}

double relative_noise(std::vector<double> v) {
  if (v.size() < 2) return 0.01;
  std::sort(v.begin(), v.end());
  const double med = percentile(v, 0.5);
  if (!(med > 0)) return 0.01;
  return std::max(0.01, (percentile(v, 0.75) - percentile(v, 0.25)) / med);
}

std::string short_reason(const std::exception& e) {
  std::string msg = e.what();
  // Build logs are long; the first line that says "error" is the useful one.
  std::size_t start = 0;
  while (start < msg.size()) {
    std::size_t end = msg.find('\n', start);
    if (end == std::string::npos) end = msg.size();
    const std::string line = msg.substr(start, end - start);
    if (line.find("error") != std::string::npos && start > 0) {
      msg = line;
      break;
    }
    start = end + 1;
  }
  if (auto nl = msg.find('\n'); nl != std::string::npos) msg.resize(nl);
  if (msg.size() > 200) msg = msg.substr(0, 197) + "...";
  return msg;
}

std::vector<double> Measurer::reference(const Params& p) {
  case_.poison();
  case_.run(p).wait();
  return case_.output();
}

Measurement Measurer::time(const Params& p, int runs) {
  Measurement m;
  for (int i = 0; i < warmup_; ++i) case_.run(p).wait();
  for (int i = 0; i < std::max(runs, 1); ++i) m.times.push_back(case_.run(p).seconds());
  m.outcome = Measurement::Outcome::Ok;
  m.median = median_of(m.times);
  return m;
}

Measurement Measurer::measure(const Params& p, const std::vector<double>& ref, double abandon_above, double timeout) {
  Measurement m;
  auto fail = [&](const char* stage, std::string reason) {
    m.outcome = Measurement::Outcome::Invalid;
    m.stage = stage;
    m.reason = std::move(reason);
    return m;
  };
  try {
    case_.poison();
    // The descriptor builds the program inside run(): the first run is also
    // the compile.
    Event first = case_.run(p);
    const double t0 = first.seconds();
    if (timeout > 0 && t0 > timeout) return fail("time-out", "one run took " + format_value(t0) + " s");
    if (std::string why = compare_outputs(ref, case_.output(), case_.tolerance()); !why.empty())
      return fail("verify", why);
    for (int i = 0; i < warmup_; ++i) case_.run(p).wait();
    for (int i = 0; i < runs_; ++i) {
      const double t = case_.run(p).seconds();
      if (timeout > 0 && t > timeout) return fail("time-out", "one run took " + format_value(t) + " s");
      m.times.push_back(t);
      if (i == 0 && t > abandon_above) {
        m.outcome = Measurement::Outcome::Abandoned;
        m.median = t;
        return m;
      }
    }
  } catch (const Error& e) {
    // Anything but a compiler error is a launch problem (geometry, resources,
    // the driver) found while enqueueing or waiting.
    return fail(e.status() == Status::BuildFailure ? "compile" : "launch", short_reason(e));
  } catch (const std::exception& e) {
    return fail("launch", short_reason(e));
  }
  m.outcome = Measurement::Outcome::Ok;
  m.median = median_of(m.times);
  return m;
}

std::string verify_against_default(const Queue& queue, const KernelFamily& family, const Problem& problem,
                                   const Params& params) {
  const Capabilities& caps = queue.device().caps();
  const Params p = family.complete(params, caps), d = family.defaults(caps);
  if (std::string why = family.check(p, caps, problem); !why.empty()) return "rejected by the descriptor: " + why;
  if (p == d) return "";
  try {
    std::unique_ptr<TuningCase> c = make_case(family, queue, problem);
    Measurer m(*c, 0, 1);
    std::vector<double> ref;
    try {
      ref = m.reference(d);
    } catch (const std::exception& e) {
      // Without a reference nothing can be verified: trust nothing either.
      return std::string("the default configuration failed: ") + short_reason(e);
    }
    Measurement r = m.measure(p, ref, std::numeric_limits<double>::infinity(), 0);
    if (r.outcome == Measurement::Outcome::Invalid) return r.stage + ": " + r.reason;
  } catch (const std::exception& e) {
    return std::string("set-up failed: ") + short_reason(e);
  }
  return "";
}

}  // namespace optune::detail
