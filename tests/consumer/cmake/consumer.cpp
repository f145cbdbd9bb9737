// A consumer of the installed library: C = A B (a small SGEMM) and
// y = gelu-free relu(x) on the default device, checked against the CPU.
// Exits non-zero on any mismatch.
#include <cmath>
#include <cstdio>
#include <vector>

#include <optune/optune.hpp>

int main() {
  try {
    optune::Device dev = optune::default_device();
    optune::Context ctx(dev);
    optune::Queue q(ctx);
    std::printf("device: %s (%s)\n", dev.name().c_str(), dev.spec().c_str());

    const std::int64_t m = 37, n = 29, k = 41;
    std::vector<float> a(std::size_t(m * k)), b(std::size_t(k * n));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 13) - 6) / 8.0f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 5 % 11) - 5) / 4.0f;
    auto da = ctx.alloc<float>(a.size()), db = ctx.alloc<float>(b.size()), dc = ctx.alloc<float>(std::size_t(m * n));
    q.upload(da, std::span<const float>(a));
    q.upload(db, std::span<const float>(b));
    optune::gemm<float>(q, optune::Layout::RowMajor, optune::Transpose::No, optune::Transpose::No, m, n, k, 1.0, da,
                        k, db, n, 0.0, dc, n)
        .wait();
    const std::vector<float> c = q.download(dc);
    int bad = 0;
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double want = 0;
        for (std::int64_t p = 0; p < k; ++p) want += double(a[std::size_t(i * k + p)]) * b[std::size_t(p * n + j)];
        if (std::fabs(c[std::size_t(i * n + j)] - want) > 1e-4 * (1 + std::fabs(want))) ++bad;
      }

    auto y = ctx.alloc<float>(a.size());
    optune::unary(q, optune::Unary::Relu, da, y).wait();
    const std::vector<float> hy = q.download(y);
    for (std::size_t i = 0; i < a.size(); ++i)
      if (hy[i] != std::max(a[i], 0.0f)) ++bad;

    std::printf("gemm %lldx%lldx%lld and relu: %d mismatches\n", (long long)m, (long long)n, (long long)k, bad);
    return bad == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 2;
  }
}
