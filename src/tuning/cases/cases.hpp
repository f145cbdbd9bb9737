// Tuning cases, one file per family (CLBlast's src/tuning/kernels/ is the
// model): how the tuner builds a problem's inputs on the device, runs the
// family with given parameters, and reads back what it checks.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "kernels/descriptor.hpp"
#include "optune/elementwise.hpp"

namespace optune::detail {

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

// The case of a family for a problem (of that family's type).
std::unique_ptr<TuningCase> make_case(const KernelFamily& family, const Queue& queue, const Problem& problem);

// Families defined outside the library (the tests' synthetic family) bring
// their case this way; the registration lasts while the process runs.
using CaseMaker = std::function<std::unique_ptr<TuningCase>(const Queue&, const Problem&)>;
void register_case(const KernelFamily& family, CaseMaker maker);

namespace cases {
// One per file of this folder.
std::unique_ptr<TuningCase> copy(const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> peak(const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> peak_mma(const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> elementwise(const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> reduce(const KernelFamily& family, const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> norm_rows(const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> softmax_cols(const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> gemm(const KernelFamily& family, const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> conv(const KernelFamily& family, const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> blas1(const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> blas_tri(const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> blas_extra(const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> blas3(const Queue& q, const Problem& pr);
std::unique_ptr<TuningCase> blas2(const Queue& q, const Problem& pr);

// Device data shared by the cases: a dense tensor of uniform values in
// [lo, hi] (a constant when lo == hi) from a fixed seed, its poisoning and
// its read-back as doubles.
Operand random_operand(const Queue& q, DType t, const std::vector<std::int64_t>& shape, double lo, double hi,
                       std::uint64_t seed);
void poison_operand(const Queue& q, const Operand& o);
std::vector<double> read_operand(const Queue& q, const Operand& o);
}  // namespace cases

}  // namespace optune::detail
