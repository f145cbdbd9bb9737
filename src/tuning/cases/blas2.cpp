// Tuning case of the blas2 family: gemv (row-major for the "mv-rows"
// buckets, column-major for "mv-cols") and ger / geru for the "rank" ones,
// on random data, through the operator's own launcher with forced parameters.
#include "kernels/families.hpp"
#include "ops/blas2_ops.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class Blas2Case : public TuningCase {
 public:
  Blas2Case(const Queue& q, const Blas2Problem& pr) : q_(q), pr_(pr) {
    const DType real = real_dtype(pr.dtype);
    const std::int64_t parts = is_complex(pr.dtype) ? 2 : 1;
    const std::int64_t rows = std::max<std::int64_t>(pr.rows, 1), cols = std::max<std::int64_t>(pr.cols, 1);
    const bool product = blas2_is_product(pr.routine);
    // Values in [0, 1]: sums do not cancel, so the candidates' orders of
    // summation compare within a relative tolerance.
    const Operand a = random_operand(q, real, {rows * cols * parts}, 0.0, 1.0, 21);
    const Operand x = random_operand(q, real, {(product ? cols : rows) * parts}, 0.0, 1.0, 22);
    const Operand y = random_operand(q, real, {(product ? rows : cols) * parts}, 0.0, 1.0, 23);
    call_.routine = pr.routine;
    call_.layout = pr.row_major ? Layout::RowMajor : Layout::ColMajor;
    call_.m = rows;
    call_.n = cols;
    call_.lda = pr.row_major ? cols : rows;
    call_.alpha = 0.5;
    call_.beta = 0.0;  // y is written, never read: the poisoned output cannot leak into the result
    call_.a = {a.mem, pr.dtype, 0, std::size_t(rows * cols)};
    call_.x = {x.mem, pr.dtype, 0, std::size_t(product ? cols : rows)};
    call_.y = {y.mem, pr.dtype, 0, std::size_t(product ? rows : cols)};
    out_ = product ? y : a;
    // A rank update accumulates into A: each run starts from A's first values.
    if (!product) keep_ = random_operand(q, real, {rows * cols * parts}, 0.0, 1.0, 21);
  }
  Event run(const Params& p) override {
    if (keep_.mem) {
      const std::size_t bytes = keep_.count * dtype_size(keep_.dtype);
      q_.copy(Buffer<std::uint8_t>(keep_.mem, 0, bytes), Buffer<std::uint8_t>(out_.mem, 0, bytes));
    }
    return run_blas2(q_, call_, {}, &p);
  }
  void poison() override { poison_operand(q_, out_); }
  std::vector<double> output() override { return read_operand(q_, out_); }
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : real_dtype(pr_.dtype) == DType::F64 ? 1e-10 : 1e-4; }
  double work_bytes() const override {
    const double es = double(dtype_size(pr_.dtype)), mn = double(pr_.rows) * double(pr_.cols);
    // Products read A once (plus the vectors); updates read and write it.
    return blas2_is_product(pr_.routine) ? (mn + double(pr_.rows + pr_.cols)) * es
                                         : (2 * mn + double(pr_.rows + pr_.cols)) * es;
  }

 private:
  Queue q_;
  Blas2Problem pr_;
  Blas2Call call_;
  Operand out_, keep_;
};

}  // namespace

std::unique_ptr<TuningCase> blas2(const Queue& q, const Problem& pr) {
  return std::make_unique<Blas2Case>(q, pr.as<Blas2Problem>());
}

}  // namespace optune::detail::cases
