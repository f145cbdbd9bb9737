// A kernel family described once: its tunable parameters and their
// candidate values, its constraints, how it fits tuned values to a device and
// problem, its launch geometry, its defines and its program text. Ops launch
// with parameters from the database; the tuner enumerates, launches and
// verifies through the same object, so the two cannot drift apart.
//
// Each family works on a problem type of its own (GemmProblem,
// ElementwiseProblem, ...: plain structs in the family's header). The tuner,
// the database and the tools see every family through KernelFamily, whose
// Problem carries the typed problem along with the data type and sizes that
// key the database; FamilyOf<P> unwraps it, so a family's code only ever sees
// its own type.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
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

// A family's register cap, parameter REGS: the registers per work-item that
// the compiler may give the program's kernels (0: the compiler's choice). The
// CUDA prelude turns OPTUNE_REG_CAP into __launch_bounds__'s least number of
// resident groups, NVIDIA's OpenCL takes it as -cl-nv-maxrregcount
// (runtime/program.hpp); other devices have no such knob, so the candidates
// are {0} there.
Parameter register_cap_parameter(const Capabilities& caps);
// OPTUNE_REG_CAP=REGS where the set has REGS > 0.
void add_register_cap(Defines& d, const Params& p);

// Any family's problem. `dtype` and `sizes` key the database and name the
// problem in logs and traces; the family reads its own typed problem with
// as<P>(). A typed problem P has `DType dtype`, `sizes()` and `fields()`
// (its other members by name, for traces).
class Problem {
 public:
  Problem() = default;
  template <class P, class = std::enable_if_t<!std::is_same_v<std::decay_t<P>, Problem>>>
  Problem(P typed)  // NOLINT: implicit, so a typed problem passes where a Problem is taken
      : dtype(typed.dtype), sizes(typed.sizes()), held_(std::make_shared<Held<P>>(std::move(typed))) {}

  DType dtype = DType::F32;
  std::vector<std::int64_t> sizes;

  // The typed problem; Error(Internal) when it is of another family.
  template <class P>
  const P& as() const {
    if (const auto* h = dynamic_cast<const Held<P>*>(held_.get())) return h->value;
    throw Error(Status::Internal, std::string("problem is not a ") + typeid(P).name());
  }
  // The typed problem's other fields by name (trace output).
  std::map<std::string, std::int64_t> fields() const { return held_ ? held_->fields() : decltype(fields()){}; }

 private:
  struct Base {
    virtual ~Base() = default;
    virtual std::map<std::string, std::int64_t> fields() const = 0;
  };
  template <class P>
  struct Held : Base {
    explicit Held(P v) : value(std::move(v)) {}
    std::map<std::string, std::int64_t> fields() const override { return value.fields(); }
    P value;
  };
  std::shared_ptr<const Base> held_;
};

// What a family compiles for a problem: the label compiler messages name,
// the source text, the defines and the kernel's entry point.
struct KernelSource {
  std::string label;
  std::string text;
  Defines defines;
  std::string entry;
};

// Helpers for descriptors.
std::string c_type_name(DType t);  // "float", "half", "double", "int", "char", "uchar"
std::size_t round_up(std::size_t x, std::size_t m);
// Work-items one compute unit keeps resident (CUDA: max threads per SM; else
// an estimate from the work-group limit).
std::size_t resident_per_unit(const Capabilities& caps);
// Static local memory a group may use (CUDA caps static shared memory at 48 KiB).
std::uint64_t local_limit(const Capabilities& caps);
std::string params_to_json(const Params& p);
// A problem's fields as bytes, the start of its key() (launch plans,
// ops/launch_plan.hpp): equal keys must mean equal problems.
inline std::string plan_key(std::initializer_list<std::int64_t> fields) {
  return std::string(reinterpret_cast<const char*>(fields.begin()), fields.size() * sizeof(std::int64_t));
}
Params params_from_json(const std::string& json);  // throws Error(InvalidArgument)
// A parameter value written as text ("64", "-1"): nothing when the text is
// not one whole integer (OPTUNE_PARAMS, optune tune --fix).
std::optional<std::int64_t> parse_param_value(const std::string& text);
// The embedded text of a kernel source, and compiling (cached) a program's
// kernel on the queue's context.
std::string embedded_kernel_text(const std::string& source);
KernelPtr compile_kernel(const Queue& queue, const KernelSource& src);

// The family as the tuner, the database and the tools see it.
class KernelFamily {
 public:
  virtual ~KernelFamily() = default;
  virtual std::string name() const = 0;         // "copy"
  virtual std::vector<Parameter> parameters(const Capabilities& caps) const = 0;
  virtual std::vector<std::string> buckets() const = 0;
  virtual std::vector<DType> dtypes(const Capabilities& caps) const = 0;
  // "" when the parameters can run on this device and problem; else why not.
  virtual std::string check(const Params& p, const Capabilities& caps, const Problem& problem) const = 0;
  // Problem-size bucket for the database ("n<=2^20", "large", ...).
  virtual std::string bucket(const Problem& problem) const = 0;
  // A representative problem for a bucket, used by the tuner.
  virtual Problem example(DType dtype, const std::string& bucket, const Capabilities& caps) const = 0;
  // The buckets whose entries serve a problem, most specific first: bucket()
  // alone by default; a family whose bucket() refines a coarser one (GEMM's
  // "large/nt", a transpose pair within "large") names the coarser one
  // after it, so that entries of either serve (database lookup).
  virtual std::vector<std::string> bucket_chain(const Problem& problem) const { return {bucket(problem)}; }
  // Whether `bucket` is one that example() understands: those buckets()
  // lists (what the tuner covers by default) and any refinement of them.
  virtual bool knows_bucket(const std::string& bucket) const;
  // The bucket whose example checks a stored entry of `bucket` once before
  // its first use: a cheap one (the first of buckets()) by default.
  virtual std::string trust_bucket(const std::string& bucket) const;

  // The program a configuration builds for a problem (fitted to it), which
  // the tuner compiles ahead of the run that needs it; nothing for a family
  // with no kernel of its own (a routine's choice) or none that it can say.
  virtual std::optional<KernelSource> program_for(const Params& p, const Capabilities& caps,
                                                  const Problem& problem) const {
    return std::nullopt;
  }

  // The parameters a configuration runs with on a problem (the family's
  // fit), so that the tuner times each distinct run once (two values the fit
  // makes equal, such as a parameter that does not apply to the problem);
  // nothing where the family cannot say. May throw as fit does.
  virtual std::optional<Params> fitted(const Params& p, const Capabilities& caps, const Problem& problem) const {
    return std::nullopt;
  }

  Params defaults(const Capabilities& caps) const;
  // Fills parameters missing from p with defaults and drops unknown names.
  Params complete(const Params& p, const Capabilities& caps) const;
  // "" when every parameter is present and one of its candidate values.
  std::string check_candidates(const Params& p, const Capabilities& caps) const;
};

// A family over problems of type P.
template <class P>
class FamilyOf : public KernelFamily {
 public:
  using ProblemType = P;

  virtual std::string source() const = 0;       // embedded path, "copy/copy.cl"
  virtual std::string kernel_name() const = 0;  // entry point in the source
  virtual std::string check(const Params& p, const Capabilities& caps, const P& problem) const {
    return check_candidates(p, caps);
  }
  virtual Geometry geometry(const Params& p, const Capabilities& caps, const P& problem) const = 0;
  // TYPE and every parameter, by default.
  virtual Defines defines(const Params& p, const P& problem) const {
    Defines d{{"TYPE", c_type_name(problem.dtype)}};
    for (const auto& [k, v] : p) d.emplace_back(k, std::to_string(v));
    return d;
  }
  // The embedded source under the defines, by default.
  virtual KernelSource program(const Params& p, const P& problem) const {
    return {source(), embedded_kernel_text(source()), defines(p, problem), kernel_name()};
  }
  // The tuned (or forced) values adjusted to what this device and problem
  // allow; the result passes check(). By default: completed with defaults.
  virtual Params fit(const Params& tuned, const Capabilities& caps, const P& problem) const {
    return complete(tuned, caps);
  }
  virtual std::string bucket(const P& problem) const = 0;
  virtual P make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const = 0;

  // Compiles (cached) and returns the kernel of program(p, problem).
  KernelPtr kernel(const Queue& queue, const Params& p, const P& problem) const {
    return compile_kernel(queue, program(p, problem));
  }

  std::string check(const Params& p, const Capabilities& caps, const Problem& pr) const final {
    return check(p, caps, pr.as<P>());
  }
  std::string bucket(const Problem& pr) const final { return bucket(pr.as<P>()); }
  std::vector<std::string> bucket_chain(const Problem& pr) const final { return bucket_chain(pr.as<P>()); }
  virtual std::vector<std::string> bucket_chain(const P& problem) const { return {bucket(problem)}; }
  Problem example(DType dtype, const std::string& b, const Capabilities& caps) const final {
    return Problem(make_example(dtype, b, caps));
  }
  std::optional<KernelSource> program_for(const Params& p, const Capabilities& caps,
                                          const Problem& pr) const override {
    if (source().empty()) return std::nullopt;
    const P& x = pr.as<P>();
    return program(fit(p, caps, x), x);
  }
  std::optional<Params> fitted(const Params& p, const Capabilities& caps, const Problem& pr) const override {
    return fit(p, caps, pr.as<P>());
  }
};

}  // namespace optune::detail
