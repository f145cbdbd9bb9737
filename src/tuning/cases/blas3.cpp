// Tuning case of the blas3 family: syrk (lower, no transpose) for the
// rank-k buckets, trsm (left, lower, unit diagonal, off-diagonal entries in
// [-1/n, 1/n], so the solve is well conditioned) for the triangular ones, on
// random n x n row-major matrices through the operator's own launcher with
// forced parameters. trsm solves in place: every run first restores B from
// a pristine copy (an n^2 copy beside the n^3 solve).
#include "ops/blas3_ops.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class Blas3Case : public TuningCase {
 public:
  Blas3Case(const Queue& q, const Blas3Problem& pr) : q_(q), pr_(pr) {
    const std::int64_t n = std::max<std::int64_t>(pr.n, 1);
    const bool tri = blas3_is_triangular(pr.routine);
    const double off = tri ? 1.0 / double(n) : 1.0;
    a_ = random_operand(q, pr.dtype, {n, n}, -off, off, 21);
    out_ = random_operand(q, pr.dtype, {n, n}, -1.0, 1.0, 22);
    pristine_ = random_operand(q, pr.dtype, {n, n}, -1.0, 1.0, 22);
    call_.routine = tri ? Blas3Routine::Trsm : Blas3Routine::Syrk;
    call_.uplo = Triangle::Lower;
    call_.diag = Diagonal::Unit;
    call_.m = call_.n = n;
    call_.k = n;
    call_.alpha = 1;
    call_.beta = 0;
    call_.a = {a_.mem, 0, a_.count, pr.dtype};
    if (tri) call_.b = {out_.mem, 0, out_.count, pr.dtype};
    else call_.c = {out_.mem, 0, out_.count, pr.dtype};
    call_.lda = call_.ldb = call_.ldc = n;
  }
  Event run(const Params& p) override {
    WaitList restored;
    if (blas3_is_triangular(pr_.routine)) {
      const std::size_t bytes = out_.count * dtype_size(pr_.dtype);
      restored.push_back(q_.copy(Buffer<std::uint8_t>(pristine_.mem, 0, bytes), Buffer<std::uint8_t>(out_.mem, 0, bytes)));
    }
    return run_blas3(q_, call_, restored, &p);
  }
  void poison() override { poison_operand(q_, out_); }
  std::vector<double> output() override {
    std::vector<double> v = read_operand(q_, out_);
    if (blas3_is_triangular(pr_.routine)) return v;
    // syrk writes C's lower triangle only: compare that (read_operand gives
    // one value per element, a complex one's real part).
    const std::size_t n = std::size_t(std::max<std::int64_t>(pr_.n, 1));
    std::vector<double> lower;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j <= i; ++j) lower.push_back(v[i * n + j]);
    return lower;
  }
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : real_dtype(pr_.dtype) == DType::F64 ? 1e-10 : 1e-3; }
  double work_flops() const override {
    const double n = double(std::max<std::int64_t>(pr_.n, 1));
    // trsm: m^2 n; syrk: n^2 k (n (n + 1) k); complex 4 times as many
    return n * n * n * (is_complex(pr_.dtype) ? 4 : 1);
  }

 private:
  Queue q_;
  Blas3Problem pr_;
  Operand a_, out_, pristine_;
  Blas3Call call_;
};

}  // namespace

std::unique_ptr<TuningCase> blas3(const Queue& q, const Problem& pr) {
  return std::make_unique<Blas3Case>(q, pr.as<Blas3Problem>());
}

}  // namespace optune::detail::cases
