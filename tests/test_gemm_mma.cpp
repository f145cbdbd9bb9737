// gemm_mma (src/kernels/gemm/gemm_mma.cl, mma.sync on the tensor cores)
// launched directly, before the host offers it as a GEMM candidate: f16,
// bf16 and tf32 inputs with f16, bf16 or f32 C, every transposition, odd
// sizes (edges of the tiles and of K chunks), the fused epilogue (alpha,
// beta, bias per row or column, activations), strided and list batches,
// alpha = 0 (A and B never read), and several tile shapes, against a
// double-precision reference computed from the rounded inputs. C is
// poisoned with NaN where beta = 0, and the gaps between its rows (ldc > N)
// hold a sentinel that must survive.
//
// Runs on CUDA devices of compute capability 8.0 or newer (the gpu label's
// entry, OPTUNE_DEVICE=cuda:0); every case skips elsewhere (PoCL in CI).
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <tuple>

#include "ops/gemm_ops.hpp"
#include "runtime/program.hpp"
#include "support/gemm_fixture.hpp"

using namespace optune;

namespace {

const int kNoCacheFile = setenv("OPTUNE_CACHE", "off", 0);

enum class El { F16, BF16, F32 };  // storage of A and B (F32: rounded to tf32) or of C
const char* el_name(El e) { return e == El::F16 ? "f16" : e == El::BF16 ? "bf16" : "f32"; }
std::size_t el_bytes(El e) { return e == El::F32 ? 4 : 2; }

// The kernel's defines: element types, layouts and tile parameters.
struct MmaConfig {
  El in = El::F16, out = El::F16;
  bool ta = false, tb = false;
  int bm = 128, bn = 128, bk = 0, wm = 64, wn = 0, stages = 3, group = 8;  // 0: the kernel's default

  detail::Defines defines() const {
    detail::Defines d = {{"EPI", "float"}, {"COMP", "float"}, {"TRANS_A", ta ? "1" : "0"}, {"TRANS_B", tb ? "1" : "0"},
                         {"BM", std::to_string(bm)}, {"BN", std::to_string(bn)}, {"WM", std::to_string(wm)},
                         {"STAGES", std::to_string(stages)}, {"SWIZZLE_GROUP", std::to_string(group)}};
    if (in == El::F16) d.insert(d.end(), {{"TYPE", "half"}, {"HALF_STORAGE", "1"}});
    if (in == El::BF16) d.insert(d.end(), {{"TYPE", "ushort"}, {"BF16_STORAGE", "1"}});
    if (in == El::F32) d.insert(d.end(), {{"TYPE", "float"}, {"MMA_TF32", "1"}});
    d.insert(d.end(), {{"CTYPE", out == El::F16 ? "half" : out == El::BF16 ? "ushort" : "float"},
                       {"C_HALF_STORAGE", out == El::F16 ? "1" : "0"},
                       {"C_BF16_STORAGE", out == El::BF16 ? "1" : "0"}});
    d.emplace_back("BK", std::to_string(bk ? bk : in == El::F32 ? 16 : 32));
    d.emplace_back("WN", std::to_string(wn ? wn : in == El::F32 ? 32 : 64));
    return d;
  }
  int threads() const { return 32 * (bm / wm) * (bn / (wn ? wn : in == El::F32 ? 32 : 64)); }
  std::string describe() const {
    return std::string(el_name(in)) + (in == El::F32 ? "(tf32)" : "") + " -> " + el_name(out) + " " +
           (ta ? "T" : "N") + (tb ? "T" : "N") + " " + std::to_string(bm) + "x" + std::to_string(bn) + "x" +
           std::to_string(bk ? bk : in == El::F32 ? 16 : 32) + " stages " + std::to_string(stages);
  }
};

// ---- the library's internals, in one place (the host side is being
// restructured into GEMM candidates: repoint these calls when it moves) ----
void run_mma(const MmaConfig& cfg, Unary act, const std::vector<detail::KernelArg>& args, std::uint64_t m,
             std::uint64_t n, std::uint64_t batch) {
  const Queue& q = test::queue();
  const std::string text = detail::gemm_kernels::program_text("gemm/gemm_mma.cl", act);
  detail::KernelPtr k =
      detail::get_program_from_text(*q.context().impl(), "gemm/gemm_mma.cl", text, cfg.defines())->kernel("gemm_mma");
  detail::Geometry g;
  g.dims = 3;
  g.local[0] = std::size_t(cfg.threads());
  g.global[0] = std::size_t((n + cfg.bn - 1) / cfg.bn) * g.local[0];
  g.global[1] = std::size_t((m + cfg.bm - 1) / cfg.bm);
  g.global[2] = std::size_t(batch);
  detail::launch_kernel(q, *k, args, g, {}).wait();
}

// ---- host storage of the element types ----

std::uint16_t to_bf16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return std::uint16_t((u >> 16) | 0x40u);
  return std::uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
float from_bf16(std::uint16_t b) {
  const std::uint32_t u = std::uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
// cvt.rna.tf32.f32: 10 mantissa bits, ties away from zero.
float to_tf32(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;
  std::memcpy(&f, &u, 4);
  return f;
}

// Values as stored (bytes) and as the kernel sees them (rounded, as double).
struct Stored {
  std::vector<std::uint8_t> bytes;
  std::vector<double> value;
};
Stored store(El e, const std::vector<float>& v, bool tf32) {
  Stored s;
  s.bytes.resize(v.size() * el_bytes(e));
  s.value.resize(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (e == El::F32) {
      std::memcpy(&s.bytes[4 * i], &v[i], 4);
      s.value[i] = tf32 ? to_tf32(v[i]) : v[i];
    } else {
      const std::uint16_t h = e == El::F16 ? half::from_float(v[i]) : to_bf16(v[i]);
      std::memcpy(&s.bytes[2 * i], &h, 2);
      s.value[i] = e == El::F16 ? half::to_float(h) : from_bf16(h);
    }
  }
  return s;
}
double load(El e, const std::uint8_t* p) {
  if (e == El::F32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  std::uint16_t h;
  std::memcpy(&h, p, 2);
  return e == El::F16 ? half::to_float(h) : from_bf16(h);
}
// Quiet NaN and a finite sentinel of each storage type.
void put_bits(El e, std::uint8_t* p, bool nan) {
  if (e == El::F32) {
    const std::uint32_t u = nan ? 0x7fc00000u : 0xc2a50000u;  // -82.5
    std::memcpy(p, &u, 4);
  } else {
    const std::uint16_t h = nan ? (e == El::F16 ? 0x7e00 : 0x7fc0) : (e == El::F16 ? 0xd52a : 0xc2a5);
    std::memcpy(p, &h, 2);
  }
}

std::size_t round8(std::size_t x) { return (x + 7) / 8 * 8; }

// One launch: `batch` products, strided or listed, with the epilogue.
struct MmaCase {
  std::int64_t m = 1, n = 1, k = 1, batch = 1;
  double alpha = 1, beta = 0;
  int bias = 0;  // 0 none, 1 per row, 2 per column
  bool list = false;  // offsets and alpha/beta per product from the table
  Unary act = Unary::Copy;
  double p0 = 0, p1 = 0;  // the activation's parameters
};

double activate(Unary act, double v, double p0, double p1) {
  switch (act) {
    case Unary::Relu: return v > 0 ? v : 0;
    case Unary::Clamp: return std::fmin(std::fmax(v, p0), p1);
    default: return v;
  }
}

::testing::AssertionResult check(const MmaConfig& cfg, const MmaCase& c) {
  const std::size_t m = std::size_t(c.m), n = std::size_t(c.n), k = std::size_t(c.k), batch = std::size_t(c.batch);
  // Leading dimensions and offsets of A and B: multiples of 8 elements (the
  // kernel's condition) with room past the rows; C's deliberately odd.
  const std::size_t lda = round8(cfg.ta ? m : k) + 8, ldb = round8(cfg.tb ? k : n) + 16, ldc = n + 3;
  const std::size_t a_rows = cfg.ta ? k : m, b_rows = cfg.tb ? n : k;
  const std::size_t a_stride = a_rows * lda + 8, b_stride = b_rows * ldb + 24, c_stride = m * ldc + 5;
  const std::size_t a_off = 16, b_off = 8, c_off = 1, bias_off = 3;
  // List batches: products in reverse order of the strided layout.
  std::vector<std::uint64_t> offs(3 * batch);
  std::vector<float> alphas(batch), betas(batch);
  for (std::size_t z = 0; z < batch; ++z) {
    const std::size_t from = c.list ? batch - 1 - z : z;
    offs[3 * z] = from * a_stride, offs[3 * z + 1] = from * b_stride, offs[3 * z + 2] = from * c_stride;
    alphas[z] = float(c.alpha * (c.list ? 1.0 + 0.25 * double(z) : 1.0));
    betas[z] = float(c.beta * (c.list ? 1.0 - 0.125 * double(z) : 1.0));
  }
  const auto pos = [&](std::size_t z, int which, std::size_t stride) {
    return c.list ? std::size_t(offs[3 * z + std::size_t(which)]) : z * stride;
  };

  const Stored a = store(cfg.in, test::random_floats(a_off + batch * a_stride), cfg.in == El::F32);
  const Stored b = store(cfg.in, test::random_floats(b_off + batch * b_stride), cfg.in == El::F32);
  const Stored bias = store(cfg.out, test::random_floats(bias_off + std::max(m, n)), false);
  Stored cin = store(cfg.out, test::random_floats(c_off + batch * c_stride), false);
  const std::size_t eb = el_bytes(cfg.out);
  for (std::size_t z = 0; z < batch; ++z)  // C's row gaps hold the sentinel; C itself NaN when not read
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < ldc; ++j) {
        const std::size_t ci = c_off + pos(z, 2, c_stride) + i * ldc + j;
        if (j >= n) put_bits(cfg.out, &cin.bytes[ci * eb], false);
        else if (c.beta == 0) put_bits(cfg.out, &cin.bytes[ci * eb], true);
      }
  std::vector<std::uint8_t> table(batch * 24 + batch * 8);
  std::memcpy(table.data(), offs.data(), batch * 24);
  for (std::size_t z = 0; z < batch; ++z) {
    std::memcpy(&table[batch * 24 + 8 * z], &alphas[z], 4);
    std::memcpy(&table[batch * 24 + 8 * z + 4], &betas[z], 4);
  }

  const Queue& q = test::queue();
  const auto upload = [&](const std::vector<std::uint8_t>& host) {
    Buffer<std::uint8_t> buf = q.context().alloc<std::uint8_t>(host.size());
    q.upload(buf, std::span<const std::uint8_t>(host));
    return buf;
  };
  const Buffer<std::uint8_t> da = upload(a.bytes), db = upload(b.bytes), dc = upload(cin.bytes),
                             dbias = upload(bias.bytes), dtable = upload(table);
  std::uint32_t flags = 0;
  if (c.list) flags |= 1u | 2u | 4u | 8u;
  if (c.bias == 1) flags |= 16u;
  if (c.bias == 2) flags |= 32u;
  using detail::KernelArg;
  const auto u64 = [](std::size_t v) { return KernelArg::scalar(std::uint64_t(v)); };
  const std::vector<KernelArg> args = {
      u64(m), u64(n), u64(k), KernelArg::scalar(float(c.alpha)), KernelArg::scalar(float(c.beta)),
      KernelArg::buffer(*da.mem()), u64(a_off), u64(lda), u64(a_stride),
      KernelArg::buffer(*db.mem()), u64(b_off), u64(ldb), u64(b_stride),
      KernelArg::buffer(*dc.mem()), u64(c_off), u64(ldc), u64(c_stride),
      KernelArg::buffer(*dbias.mem()), u64(bias_off),
      KernelArg::buffer(*dtable.mem()), u64(batch), KernelArg::scalar(flags), u64(0),
      KernelArg::scalar(float(c.p0)), KernelArg::scalar(float(c.p1)), u64(1), u64(k)};  // no split along K
  run_mma(cfg, c.act, args, m, n, batch);
  const std::vector<std::uint8_t> out = q.download(dc);

  double amax = 0, bmax = 0;
  for (double v : a.value) amax = std::max(amax, std::fabs(v));
  for (double v : b.value) bmax = std::max(bmax, std::fabs(v));
  // f32 accumulation over K (random order inside the tensor cores), then
  // the rounding of C's type; beta C and the bias are exact inputs.
  const double out_ulp = cfg.out == El::F16 ? std::ldexp(1.0, -11) : cfg.out == El::BF16 ? std::ldexp(1.0, -8)
                                                                                         : std::ldexp(1.0, -23);
  const double out_min = cfg.out == El::F16 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -126);
  std::size_t bad = 0, unwritten = 0, clobbered = 0;
  std::ostringstream first;
  for (std::size_t z = 0; z < batch; ++z) {
    const double alpha = c.list ? alphas[z] : float(c.alpha), beta = c.list ? betas[z] : float(c.beta);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < ldc; ++j) {
        const std::size_t ci = c_off + pos(z, 2, c_stride) + i * ldc + j;
        const double got = load(cfg.out, &out[ci * eb]);
        if (j >= n) {
          if (std::memcmp(&out[ci * eb], &cin.bytes[ci * eb], eb) != 0) ++clobbered;
          continue;
        }
        double ab = 0;
        if (alpha != 0)
          for (std::size_t p = 0; p < k; ++p)
            ab += a.value[a_off + pos(z, 0, a_stride) + (cfg.ta ? p * lda + i : i * lda + p)] *
                  b.value[b_off + pos(z, 1, b_stride) + (cfg.tb ? j * ldb + p : p * ldb + j)];
        const double pre = alpha * ab + (beta == 0 ? 0.0 : beta * cin.value[ci]) +
                           (c.bias == 1 ? bias.value[bias_off + i] : c.bias == 2 ? bias.value[bias_off + j] : 0.0);
        const double want = activate(c.act, pre, c.p0, c.p1);
        const double tol = std::ldexp(1.0, -12) * std::sqrt(double(k)) * amax * bmax * std::fabs(alpha) +
                           out_ulp * std::fabs(want) + 2 * out_min;
        if (std::isnan(got)) ++unwritten;
        if (!(std::fabs(got - want) <= tol)) {
          if (bad++ == 0)
            first << " first at product " << z << " (" << i << ", " << j << "): " << got << " vs " << want
                  << " (tolerance " << tol << ")";
        }
      }
  }
  if (bad == 0 && clobbered == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << cfg.describe() << ", " << c.m << " x " << c.n << " x " << c.k << " batch "
                                       << c.batch << (c.list ? " (list)" : "") << ": " << bad << " wrong ("
                                       << unwritten << " NaN)," << first.str() << "; " << clobbered
                                       << " elements between C's rows overwritten";
}

class GemmMma : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string why = test::why_not_cuda_sm80("gemm_mma"); !why.empty()) GTEST_SKIP() << why;
  }
};

const std::vector<std::tuple<int, int, int>> kOddSizes = {{1, 1, 1}, {17, 127, 33}, {127, 17, 1000}, {130, 200, 64}};

}  // namespace

// Every input type with every output type and transposition, at odd sizes.
TEST_F(GemmMma, TypesTranspositionsAndEdges) {
  for (El in : {El::F16, El::BF16, El::F32})
    for (El out : {El::F16, El::BF16, El::F32})
      for (bool ta : {false, true})
        for (bool tb : {false, true}) {
          MmaConfig cfg;
          cfg.in = in, cfg.out = out, cfg.ta = ta, cfg.tb = tb;
          for (auto [m, n, k] : kOddSizes) {
            MmaCase c;
            c.m = m, c.n = n, c.k = k;
            EXPECT_TRUE(check(cfg, c));
          }
        }
}

// alpha, beta (C read), bias per row and per column, activations.
TEST_F(GemmMma, Epilogue) {
  for (El in : {El::F16, El::BF16, El::F32}) {
    MmaConfig cfg;
    cfg.in = in, cfg.out = in == El::F32 ? El::F32 : in;
    cfg.tb = in == El::BF16;
    MmaCase c;
    c.m = 70, c.n = 45, c.k = 100;
    for (double alpha : {1.0, -0.5})
      for (double beta : {0.0, 0.75})
        for (int bias : {0, 1, 2}) {
          c.alpha = alpha, c.beta = beta, c.bias = bias;
          EXPECT_TRUE(check(cfg, c)) << "alpha " << alpha << " beta " << beta << " bias " << bias;
        }
    c.act = Unary::Relu, c.beta = 0.5, c.bias = 2;
    EXPECT_TRUE(check(cfg, c)) << "relu";
    c.act = Unary::Clamp, c.p0 = -0.25, c.p1 = 0.5;
    EXPECT_TRUE(check(cfg, c)) << "clamp";
    // alpha = 0: beta C + bias only, A and B unread.
    c.act = Unary::Copy, c.alpha = 0, c.beta = 1, c.bias = 1;
    EXPECT_TRUE(check(cfg, c)) << "alpha 0";
  }
}

// Strided and list batches (offsets, alpha and beta per product).
TEST_F(GemmMma, Batches) {
  for (El in : {El::F16, El::BF16})
    for (bool list : {false, true}) {
      MmaConfig cfg;
      cfg.in = cfg.out = in;
      cfg.ta = list;
      MmaCase c;
      c.m = 40, c.n = 72, c.k = 56, c.batch = 3, c.list = list, c.beta = 0.5, c.bias = 2;
      EXPECT_TRUE(check(cfg, c));
      c.beta = 0;
      EXPECT_TRUE(check(cfg, c));
    }
}

// Other tile shapes, stage counts and tile orders (static shared memory:
// the launcher cannot raise the dynamic limit yet), with K of fewer tiles
// than stages and several tiles in every direction.
TEST_F(GemmMma, TileShapes) {
  struct Shape { int bm, bn, bk, wm, wn, stages, group; };
  for (const Shape& s : {Shape{64, 64, 32, 32, 32, 4, 1}, Shape{32, 32, 32, 16, 16, 2, 8},
                         Shape{128, 64, 64, 64, 32, 2, 2}, Shape{64, 128, 32, 32, 64, 3, 8},
                         // Thin tiles: one warp tall or one warp wide (thin products).
                         Shape{16, 128, 32, 16, 32, 4, 8}, Shape{16, 64, 64, 16, 16, 3, 1},
                         Shape{128, 16, 32, 32, 16, 3, 8}, Shape{32, 256, 32, 16, 64, 2, 8}})
    for (El in : {El::F16, El::BF16})
      for (bool t : {false, true}) {
        MmaConfig cfg;
        cfg.in = cfg.out = in;
        cfg.ta = t, cfg.tb = !t;
        cfg.bm = s.bm, cfg.bn = s.bn, cfg.bk = s.bk, cfg.wm = s.wm, cfg.wn = s.wn, cfg.stages = s.stages,
        cfg.group = s.group;
        for (auto [m, n, k] : {std::tuple{300, 260, 40}, {129, 65, 520}, {7, 300, 200}, {300, 13, 264}}) {
          MmaCase c;
          c.m = m, c.n = n, c.k = k, c.beta = 0.25;
          EXPECT_TRUE(check(cfg, c));
        }
      }
  MmaConfig tf32;
  tf32.in = tf32.out = El::F32;
  tf32.bm = tf32.bn = 64, tf32.wm = tf32.wn = 32, tf32.bk = 32, tf32.stages = 3;
  MmaCase c;
  c.m = 150, c.n = 97, c.k = 333;
  EXPECT_TRUE(check(tf32, c));
}
