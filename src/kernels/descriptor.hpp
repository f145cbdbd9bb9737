// A kernel family described once: its tunable parameters and their
// candidates, its constraints, its launch geometry and its defines. Ops launch
// with parameters from the database; the tuner enumerates, launches and
// verifies through the same object, so the two cannot drift apart.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/program.hpp"

namespace optune::detail {

using Params = std::map<std::string, std::int64_t>;

struct Parameter {
  std::string name;                   // the macro the source reads, e.g. "WGS"
  std::vector<std::int64_t> values;   // candidates
  std::int64_t default_value = 0;     // used when the database has nothing
  std::string meaning;                // one line, for `optune tune --help` and logs
};

// One problem instance: element type, sizes (family-specific meaning) and
// named extras (offsets, flags).
struct Problem {
  DType dtype = DType::F32;
  std::vector<std::int64_t> sizes;
  std::map<std::string, std::int64_t> extra;
  std::int64_t get(const std::string& key, std::int64_t fallback = 0) const {
    auto it = extra.find(key);
    return it == extra.end() ? fallback : it->second;
  }
};

// Inputs on the device for one problem, built once and run many times by the
// tuner. output() reads back the result of the last run as doubles.
class TuningCase {
 public:
  virtual ~TuningCase() = default;
  virtual Event run(const Params& params) = 0;
  virtual void poison() = 0;  // overwrite outputs so an unwritten element shows
  virtual std::vector<double> output() = 0;
  virtual double tolerance() const = 0;  // relative, for verification against the default
  virtual double work_bytes() const { return 0; }  // bytes moved per run, for GB/s
  virtual double work_flops() const { return 0; }  // flops per run, for GFLOP/s
};

class KernelFamily {
 public:
  virtual ~KernelFamily() = default;
  virtual std::string name() const = 0;         // "copy"
  virtual std::string source() const = 0;       // embedded path, "copy/copy.cl"
  virtual std::string kernel_name() const = 0;  // entry point in the source
  virtual std::vector<Parameter> parameters(const Capabilities& caps) const = 0;
  // "" when the parameters can run on this device and problem; else why not.
  virtual std::string check(const Params& p, const Capabilities& caps, const Problem& problem) const;
  virtual Geometry geometry(const Params& p, const Capabilities& caps, const Problem& problem) const = 0;
  virtual Defines defines(const Params& p, const Problem& problem) const;
  // Problem-size bucket for the database ("n<=2^20", "large", ...).
  virtual std::string bucket(const Problem& problem) const = 0;
  // A representative problem for a bucket, used by the tuner.
  virtual Problem example(DType dtype, const std::string& bucket, const Capabilities& caps) const = 0;
  virtual std::vector<std::string> buckets() const = 0;
  virtual std::vector<DType> dtypes(const Capabilities& caps) const = 0;
  virtual std::unique_ptr<TuningCase> make_case(const Queue& queue, const Problem& problem) const = 0;

  Params defaults(const Capabilities& caps) const;
  // Fills parameters missing from p with defaults and drops unknown names.
  Params complete(const Params& p, const Capabilities& caps) const;
  // Compiles (cached) and returns the kernel for these parameters.
  KernelPtr kernel(const Queue& queue, const Params& p, const Problem& problem) const;
};

// Every family, in a stable order.
const std::vector<const KernelFamily*>& families();
// Throws Error(NotFound) listing the families.
const KernelFamily& find_family(const std::string& name);

// Helpers for descriptors.
std::string c_type_name(DType t);  // "float", "half", "double", "int", "char", "uchar"
std::size_t round_up(std::size_t x, std::size_t m);
// Work-items one compute unit keeps resident (CUDA: max threads per SM; else
// an estimate from the work-group limit).
std::size_t resident_per_unit(const Capabilities& caps);
std::string params_to_json(const Params& p);
Params params_from_json(const std::string& json);  // throws Error(InvalidArgument)
// A parameter value written as text ("64", "-1"): nothing when the text is
// not one whole integer (OPTUNE_PARAMS, optune tune --fix).
std::optional<std::int64_t> parse_param_value(const std::string& text);

}  // namespace optune::detail
