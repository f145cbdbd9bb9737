// The reference BLAS loaders of the bench (tools/optune/reference): the
// library for the test device (CLBlast on OpenCL, cuBLAS on CUDA) multiplies
// optune buffers correctly for every layout and transpose, which checks the
// argument mapping (cuBLAS's row-major swap, offsets, leading dimensions and
// strides), and a missing library is reported, never fatal. The bench's
// reference convolutions are probed here too (cuDNN on CUDA, CLBlast's
// convgemm on OpenCL), and where installed their outputs are compared with
// optune's conv2d.
#include <cmath>
#include <cstring>
#include <limits>

#include "bench_blas.hpp"  // kHalfResultTolerance
#include "optune/blas.hpp"
#include "optune/blas2.hpp"
#include "reference_blas.hpp"
#include "reference_conv.hpp"
#include "dynamic_library.hpp"
#include "gemm_check.hpp"
#include "support/test_support.hpp"

using namespace optune;
using optune::tool::to_double;
using optune::tool::GemmCall;

namespace {

// Element (i, j) of a stored matrix.
std::size_t at(Layout layout, std::int64_t i, std::int64_t j, std::int64_t ld) {
  return std::size_t(layout == Layout::RowMajor ? i * ld + j : i + j * ld);
}

// Stored rows x columns of op(X) = rows x cols when X is transposed or not.
struct Stored {
  std::int64_t rows, cols;
};
Stored stored(Transpose t, std::int64_t rows, std::int64_t cols) {
  return t == Transpose::Yes ? Stored{cols, rows} : Stored{rows, cols};
}
std::int64_t min_ld(Layout layout, Stored s) { return layout == Layout::RowMajor ? s.cols : s.rows; }
std::int64_t elements(Layout layout, Stored s, std::int64_t ld) {
  return layout == Layout::RowMajor ? (s.rows - 1) * ld + s.cols : (s.cols - 1) * ld + s.rows;
}

template <class T>
double tolerance() {
  if constexpr (std::is_same_v<T, double>) return 1e-12;
  if constexpr (std::is_same_v<T, half>) return 1e-2;
  return 1e-5;
}

template <class T>
std::vector<T> to_type(const std::vector<float>& v) {
  std::vector<T> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = T(v[i]);
  return out;
}

// Runs one call on the device's reference library and checks every element
// of every product against a double CPU reference, relative to the
// magnitude |alpha| sum |a b| + |beta c| of each element. Elements outside C's
// products (padding of ld, the gaps between batch entries) must be untouched.
template <class T>
void check_reference(tool::ReferenceBlas& blas, GemmCall call, const std::string& label) {
  SCOPED_TRACE(label + " seed " + std::to_string(test::seed()));
  const Queue& q = test::queue();
  const Stored sa = stored(call.trans_a, call.m, call.k), sb = stored(call.trans_b, call.k, call.n);
  const Stored sc{call.m, call.n};
  call.lda = min_ld(call.layout, sa) + 3;
  call.ldb = min_ld(call.layout, sb) + 1;
  call.ldc = min_ld(call.layout, sc) + 2;
  const std::int64_t ea = elements(call.layout, sa, call.lda), eb = elements(call.layout, sb, call.ldb);
  const std::int64_t ec = elements(call.layout, sc, call.ldc);
  call.stride_a = call.batch > 1 ? ea + 5 : 0;
  call.stride_b = call.batch > 1 ? eb + 7 : 0;
  call.stride_c = call.batch > 1 ? ec + 4 : 0;
  const std::size_t offset = 3;  // every view starts inside its allocation
  const std::size_t na = offset + std::size_t(call.stride_a * (call.batch - 1) + ea);
  const std::size_t nb = offset + std::size_t(call.stride_b * (call.batch - 1) + eb);
  const std::size_t nc = offset + std::size_t(call.stride_c * (call.batch - 1) + ec);
  const auto ha = to_type<T>(test::random_floats(na)), hb = to_type<T>(test::random_floats(nb));
  const auto hc = to_type<T>(test::random_floats(nc));
  const Context& ctx = test::context();
  Buffer<T> a = ctx.alloc<T>(na), b = ctx.alloc<T>(nb), c = ctx.alloc<T>(nc);
  q.upload(a, std::span<const T>(ha));
  q.upload(b, std::span<const T>(hb));
  q.upload(c, std::span<const T>(hc));

  Event e = blas.gemm(q, call, a.view(offset, na - offset), b.view(offset, nb - offset), c.view(offset, nc - offset));
  e.wait();
  EXPECT_GT(e.seconds(), 0.0);
  const std::vector<T> got = q.download(c);

  std::vector<bool> written(nc, false);
  double worst = 0;
  for (std::int64_t p = 0; p < call.batch; ++p) {
    const std::size_t oa = offset + std::size_t(p * call.stride_a), ob = offset + std::size_t(p * call.stride_b);
    const std::size_t oc = offset + std::size_t(p * call.stride_c);
    for (std::int64_t i = 0; i < call.m; ++i) {
      for (std::int64_t j = 0; j < call.n; ++j) {
        double sum = 0, mag = 0;
        for (std::int64_t l = 0; l < call.k; ++l) {
          const std::size_t ia = call.trans_a == Transpose::Yes ? at(call.layout, l, i, call.lda) : at(call.layout, i, l, call.lda);
          const std::size_t ib = call.trans_b == Transpose::Yes ? at(call.layout, j, l, call.ldb) : at(call.layout, l, j, call.ldb);
          const double prod = to_double(ha[oa + ia]) * to_double(hb[ob + ib]);
          sum += prod;
          mag += std::fabs(prod);
        }
        const std::size_t ic = oc + at(call.layout, i, j, call.ldc);
        const double c0 = to_double(hc[ic]);
        const double want = call.alpha * sum + call.beta * c0;
        const double scale = std::fabs(call.alpha) * mag + std::fabs(call.beta * c0) + 1e-30;
        const double err = std::fabs(to_double(got[ic]) - want) / scale;
        worst = std::max(worst, err);
        written[ic] = true;
        if (err > tolerance<T>()) {
          ADD_FAILURE() << "C(" << i << ", " << j << ") of product " << p << ": got " << to_double(got[ic]) << ", want "
                        << want << " (relative error " << err << ")";
          return;
        }
      }
    }
  }
  for (std::size_t i = 0; i < nc; ++i)
    if (!written[i] && std::memcmp(&got[i], &hc[i], sizeof(T)) != 0) {
      ADD_FAILURE() << "element " << i << " of C outside every product was overwritten";
      return;
    }
}

struct Reference {
  std::unique_ptr<tool::ReferenceBlas> blas;
  std::string reason;
};

Reference& reference() {
  static Reference* r = [] {
    auto* out = new Reference;
    tool::ReferenceOpen o = tool::open_reference_blas(test::queue());
    out->blas = std::move(o.blas);
    out->reason = o.reason;
    return out;
  }();
  return *r;
}

#define REQUIRE_REFERENCE()                                                              \
  if (!reference().blas) GTEST_SKIP() << "no reference library: " << reference().reason; \
  tool::ReferenceBlas& blas = *reference().blas

template <class T>
void every_layout_and_transpose(tool::ReferenceBlas& blas, std::int64_t batch) {
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Transpose ta : {Transpose::No, Transpose::Yes})
      for (Transpose tb : {Transpose::No, Transpose::Yes}) {
        GemmCall call;
        call.layout = layout;
        call.trans_a = ta;
        call.trans_b = tb;
        call.m = 17;
        call.n = 13;
        call.k = 9;
        call.alpha = 1.5;
        call.beta = -0.75;
        call.batch = batch;
        check_reference<T>(blas, call,
                           std::string(layout == Layout::RowMajor ? "row-major" : "col-major") +
                               (ta == Transpose::Yes ? " A^T" : " A") + (tb == Transpose::Yes ? " B^T" : " B") +
                               " batch " + std::to_string(batch));
      }
}

}  // namespace

TEST(ReferenceBlas, NamesItselfAndItsVersion) {
  REQUIRE_REFERENCE();
  const std::string name = blas.name();
  EXPECT_TRUE(name.rfind("CLBlast ", 0) == 0 || name.rfind("cuBLAS ", 0) == 0) << name;
  EXPECT_EQ(name.find("version unknown"), std::string::npos) << name;
  if (name.rfind("cuBLAS", 0) == 0) EXPECT_NE(name.find("without TF32"), std::string::npos) << name;
  EXPECT_EQ(blas.unsupported(DType::F32), "");
  EXPECT_NE(blas.unsupported(DType::I32), "");
}

TEST(ReferenceBlas, SgemmEveryLayoutAndTranspose) {
  REQUIRE_REFERENCE();
  every_layout_and_transpose<float>(blas, 1);
}

TEST(ReferenceBlas, SgemmStridedBatchedEveryLayoutAndTranspose) {
  REQUIRE_REFERENCE();
  every_layout_and_transpose<float>(blas, 3);
}

TEST(ReferenceBlas, LargerProductsThroughEveryKernel) {
  // Large enough for CLBlast's indirect path (pad, transpose, product, copy
  // back: several kernels behind one call), which the span must cover.
  REQUIRE_REFERENCE();
  GemmCall call;
  call.trans_a = Transpose::Yes;
  call.m = 300;
  call.n = 260;
  call.k = 280;
  call.alpha = -1;
  call.beta = 0.5;
  check_reference<float>(blas, call, "row-major A^T B 300x260x280");
  call.layout = Layout::ColMajor;
  call.trans_a = Transpose::No;
  call.trans_b = Transpose::Yes;
  call.batch = 2;
  check_reference<float>(blas, call, "col-major A B^T 300x260x280 batch 2");
}

TEST(ReferenceBlas, Dgemm) {
  REQUIRE_REFERENCE();
  if (const std::string why = blas.unsupported(DType::F64); !why.empty()) GTEST_SKIP() << why;
  every_layout_and_transpose<double>(blas, 1);
  every_layout_and_transpose<double>(blas, 2);
}

TEST(ReferenceBlas, Hgemm) {
  REQUIRE_REFERENCE();
  if (const std::string why = blas.unsupported(DType::F16); !why.empty()) GTEST_SKIP() << why;
  every_layout_and_transpose<half>(blas, 1);
  every_layout_and_transpose<half>(blas, 2);
}

TEST(ReferenceBlas, WrongBackendIsNotAvailable) {
  const Queue& q = test::queue();
  tool::ReferenceOpen other = q.device().backend() == Backend::CUDA ? tool::open_clblast(q) : tool::open_cublas(q);
  EXPECT_EQ(other.blas, nullptr);
  EXPECT_EQ(other.reason.rfind("not available: ", 0), 0u) << other.reason;
  EXPECT_NE(other.reason.find(q.device().spec()), std::string::npos) << other.reason;
}

TEST(ReferenceBlas, ProbesReportAVersionOrAReason) {
  // No driver is needed to find a library; where one is missing the probe
  // says why instead of failing.
  for (const tool::LibraryProbe& p : {tool::probe_clblast(), tool::probe_cublas(), tool::probe_cudnn()}) {
    std::printf("probe: %s\n", p.loaded ? (p.path + " version " + p.version).c_str() : p.reason.c_str());
    if (p.loaded) {
      EXPECT_FALSE(p.path.empty());
      EXPECT_FALSE(p.version.empty()) << p.path;
    } else {
      EXPECT_FALSE(p.reason.empty());
    }
  }
}

// The cuDNN reference: none on OpenCL (and the reason says so); on CUDA
// with the library, a grouped NCHW convolution (the weights' layout is
// optune's there) with stride and pads agrees with optune::conv2d.
namespace {

// Runs a reference convolution (f32 or f16) into a poisoned buffer and
// compares every output with optune's conv2d on the same operands (small
// multiples of 1/8): |theirs - ours| <= tol (1 + |ours|).
template <class T>
void check_reference_conv(const Queue& q, tool::ReferenceConv& ref, const Conv2dDesc& d, double tol,
                          const std::string& label) {
  SCOPED_TRACE(label);
  const auto values = [](std::size_t n, std::uint64_t seed) {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = T(float(std::int64_t((i * 2654435761u + seed) % 17) - 8) / 8);
    return v;
  };
  Buffer<T> in = test::context().alloc<T>(std::size_t(d.input_elements()));
  Buffer<T> wt = test::context().alloc<T>(std::size_t(d.weight_elements()));
  Buffer<T> ours = test::context().alloc<T>(std::size_t(d.output_elements()));
  Buffer<T> theirs = test::context().alloc<T>(std::size_t(d.output_elements()));
  q.upload(in, std::span<const T>(values(std::size_t(d.input_elements()), 1)));
  q.upload(wt, std::span<const T>(values(std::size_t(d.weight_elements()), 5)));
  q.upload(theirs, std::span<const T>(std::vector<T>(std::size_t(d.output_elements()),
                                                     T(std::numeric_limits<float>::quiet_NaN()))));
  conv2d(q, d, in, wt, ours).wait();
  ASSERT_EQ(ref.unsupported(d, dtype_of_v<T>), "");
  const tool::PreparedConv p = ref.prepare(q, d, dtype_of_v<T>, interop::native_buffer(in),
                                           interop::native_buffer(wt), interop::native_buffer(theirs));
  EXPECT_FALSE(p.algorithm.empty());
  p.run().wait();
  const std::vector<T> a = q.download(ours), b = q.download(theirs);
  for (std::size_t i = 0; i < a.size(); ++i)
    ASSERT_NEAR(double(float(a[i])), double(float(b[i])), tol * (1 + std::fabs(double(float(a[i]))))) << i;
}

Conv2dDesc small_conv(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t k, std::int64_t r,
                      std::int64_t s) {
  Conv2dDesc d;
  d.batch = n, d.in_channels = c, d.in_height = h, d.in_width = w, d.out_channels = k;
  d.kernel_h = r, d.kernel_w = s;
  return d;
}

}  // namespace

TEST(ReferenceBlas, CudnnConvolutionAgreesOrSaysWhyNot) {
  const Queue& q = test::queue();
  tool::ReferenceConvOpen r = tool::open_reference_conv(q);
  if (q.device().backend() != Backend::CUDA) {
    // OpenCL: the bench's reference is CLBlast's convgemm (tested below).
    tool::ReferenceConvOpen c = tool::open_clblast_conv(q);
    EXPECT_EQ(r.reason, c.reason);
    EXPECT_EQ(r.conv ? r.conv->name() : "", c.conv ? c.conv->name() : "");
    return;
  }
  if (!r.conv) {
    EXPECT_EQ(tool::probe_cudnn().loaded, false) << r.reason;
    EXPECT_EQ(r.reason.rfind("not installed: ", 0), 0u) << r.reason;
    GTEST_SKIP() << r.reason;
  }
  Conv2dDesc d = small_conv(2, 8, 9, 11, 6, 3, 3);
  d.stride_h = 2, d.stride_w = 1;
  d.pad_top = d.pad_bottom = 1, d.pad_left = d.pad_right = 2;
  d.groups = 2;
  check_reference_conv<float>(q, *r.conv, d, 1e-4, "grouped 3x3");
  Conv2dDesc asym = d;
  asym.pad_bottom = 0;
  EXPECT_NE(r.conv->unsupported(asym, DType::F32), "");
}

// CLBlast's convgemm (the OpenCL reference of `optune bench conv`): NCHW in,
// KCHW weights, NCHW out, one pad per dimension, groups 1; checked against
// conv2d for strides, dilations, pads, odd sizes, batches and a 1x1, and
// every case it cannot run says why (prepare refuses it too).
TEST(ReferenceBlas, ClblastConvgemmAgreesOrSaysWhyNot) {
  const Queue& q = test::queue();
  tool::ReferenceConvOpen r = tool::open_clblast_conv(q);
  if (q.device().backend() != Backend::OpenCL) {
    EXPECT_EQ(r.conv, nullptr);
    EXPECT_NE(r.reason.find("OpenCL"), std::string::npos) << r.reason;
    return;
  }
  if (!r.conv) {
    EXPECT_FALSE(tool::probe_clblast().loaded && tool::clblast_symbol("CLBlastSconvgemm")) << r.reason;
    GTEST_SKIP() << r.reason;
  }
  EXPECT_NE(r.conv->name().find("CLBlast"), std::string::npos);
  EXPECT_NE(r.conv->name().find("convgemm"), std::string::npos);
  Conv2dDesc a = small_conv(2, 5, 9, 11, 6, 3, 3);
  a.stride_h = 2, a.stride_w = 1;
  a.dilation_h = 1, a.dilation_w = 2;
  a.pad_top = a.pad_bottom = 1, a.pad_left = a.pad_right = 2;
  Conv2dDesc b = small_conv(3, 7, 5, 4, 3, 1, 1);
  Conv2dDesc c = small_conv(1, 3, 13, 7, 17, 5, 3);
  c.stride_h = 3, c.stride_w = 2;
  c.pad_top = c.pad_bottom = 2;
  const bool fp16 = q.device().caps().extensions.find("cl_khr_fp16") != std::string::npos;
  for (const auto& [d, label] : {std::pair{a, "3x3 strided, dilated, padded"}, std::pair{b, "1x1 batch 3"},
                                 std::pair{c, "5x3 stride 3x2, height pads"}}) {
    check_reference_conv<float>(q, *r.conv, d, 1e-5, std::string("f32 ") + label);
    if (fp16)
      check_reference_conv<half>(q, *r.conv, d, 2e-2, std::string("f16 ") + label);
    else
      EXPECT_NE(r.conv->unsupported(d, DType::F16).find("cl_khr_fp16"), std::string::npos);
  }
  Conv2dDesc nhwc = a, mixed = a, grouped = a, asym = a;
  nhwc.input_layout = nhwc.output_layout = ConvLayout::NHWC;
  mixed.output_layout = ConvLayout::NHWC;
  grouped.groups = 5, grouped.out_channels = 10;
  asym.pad_right = 0;
  Buffer<float> x = test::context().alloc<float>(std::size_t(a.input_elements() * 2));
  for (const Conv2dDesc& d : {nhwc, mixed, grouped, asym}) {
    const std::string why = r.conv->unsupported(d, DType::F32);
    EXPECT_EQ(why, "CLBlast convgemm: NCHW, groups 1 and symmetric padding only");
    EXPECT_THROW(r.conv->prepare(q, d, DType::F32, interop::native_buffer(x), interop::native_buffer(x),
                                 interop::native_buffer(x)),
                 Error);
  }
  EXPECT_EQ(r.conv->unsupported(a, DType::BF16), "CLBlast convgemm: f32 and f16 only");
}

TEST(ReferenceBlas, MissingLibraryNamesEveryAttempt) {
  std::string reason;
  tool::DynamicLibrary lib =
      tool::DynamicLibrary::open_first({"/nonexistent/libclblast.so.1", "libnot-a-library.so.7"}, &reason);
  EXPECT_FALSE(lib.loaded());
  EXPECT_NE(reason.find("/nonexistent/libclblast.so.1"), std::string::npos) << reason;
  EXPECT_NE(reason.find("libnot-a-library.so.7"), std::string::npos) << reason;
}

TEST(ReferenceBlas, EnqueueNativeSpansTheForeignWork) {
  // A copy enqueued through the backend's own API, timed by the bracket:
  // the span must cover it and the data must have moved.
  const Queue& q = test::queue();
  const std::size_t n = 1 << 20;
  const auto host = test::random_words(n);
  Buffer<std::uint32_t> x = test::context().alloc<std::uint32_t>(n), y = test::context().alloc<std::uint32_t>(n);
  q.upload(x, std::span<const std::uint32_t>(host));
  bool called = false;
  Event e = interop::enqueue_native(q, [&](const interop::NativeQueue& nq) {
    called = true;
    EXPECT_EQ(nq.backend, q.device().backend());
    EXPECT_NE(nq.queue, nullptr);
    EXPECT_NE(nq.context, nullptr);
    // Enqueue through optune on the same in-order queue: it lands between the brackets.
    q.copy(x, y);
  });
  ASSERT_TRUE(called);
  e.wait();
  EXPECT_TRUE(e.complete());
  const EventTimes t = e.times();
  EXPECT_GE(t.end, t.start);
  EXPECT_EQ(q.download(y), host);
  const interop::NativeBuffer nb = interop::native_buffer(x.view(5, 10));
  if (q.device().backend() == Backend::CUDA) {
    EXPECT_EQ(nb.device_pointer, interop::native_buffer(x).device_pointer + 5 * sizeof(std::uint32_t));
  } else {
    EXPECT_EQ(nb.cl_mem, interop::native_buffer(x).cl_mem);
    EXPECT_EQ(nb.offset_bytes, 5 * sizeof(std::uint32_t));
  }
}

// The h rows' reference (f16 storage, f32 arithmetic). On CUDA: cuBLAS's
// cublasAxpyEx, cublasDotEx and cublasNrm2Ex, and gemv in both orders
// through cublasGemmEx with n = 1, agree with optune's h routines and with a
// double sum on the host (values k / 8 in [-1, 1], so the f32 sums are exact
// and both sides round the same number to f16: equal, nrm2 within the
// bench's h tolerance); ger and symv say cuBLAS has none. On OpenCL, every h
// row says why CLBlast is not compared.
namespace {

std::vector<half> eighths(std::size_t n, std::uint64_t seed) {
  std::vector<half> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = half(float(std::int64_t((i * 2654435761u + seed) % 17) - 8) / 8);
  return v;
}

half poison() { return half(std::numeric_limits<float>::quiet_NaN()); }

}  // namespace

TEST(ReferenceBlas, HalfLevel1AndGemvAgreeOrSayWhyNot) {
  REQUIRE_REFERENCE();
  const Queue& q = test::queue();
  const Context& ctx = test::context();
  const bool cuda = q.device().backend() == Backend::CUDA;
  using tool::Level1Call, tool::Level1Op, tool::Level2Call, tool::Level2Op;
  for (Level2Op op : {Level2Op::Ger, Level2Op::Symv}) {
    const std::string why = blas.unsupported(Level2Call{op, DType::F16, 37});
    EXPECT_EQ(why.rfind("none: ", 0), 0u) << why;
    if (cuda) EXPECT_NE(why.find(op == Level2Op::Ger ? "no half ger" : "no half symv"), std::string::npos) << why;
  }
  if (!cuda) {
    for (Level1Op op : {Level1Op::Axpy, Level1Op::Dot, Level1Op::Nrm2}) {
      const std::string why = blas.unsupported(Level1Call{op, DType::F16, 1001, 0.5});
      EXPECT_EQ(why.rfind("none: ", 0), 0u) << why;
      if (!q.device().caps().fp16) EXPECT_NE(why.find("cl_khr_fp16"), std::string::npos) << why;
    }
    const std::string why = blas.unsupported(Level2Call{Level2Op::Gemv, DType::F16, 37});
    EXPECT_EQ(why.rfind("none: ", 0), 0u) << why;
    return;
  }

  const std::int64_t n = 1001;
  const std::vector<half> hx = eighths(std::size_t(n), 3), hy = eighths(std::size_t(n), 11);
  Buffer<half> x = ctx.alloc<half>(std::size_t(n)), y = ctx.alloc<half>(std::size_t(n));
  Buffer<half> ours = ctx.alloc<half>(1), theirs = ctx.alloc<half>(1);
  q.upload(x, std::span<const half>(hx));
  double dot_want = 0, sq = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    dot_want += double(float(hx[i])) * double(float(hy[i]));
    sq += double(float(hx[i])) * double(float(hx[i]));
  }
  for (Level1Op op : {Level1Op::Axpy, Level1Op::Dot, Level1Op::Nrm2}) {
    SCOPED_TRACE(op == Level1Op::Axpy ? "axpy" : op == Level1Op::Dot ? "dot" : "nrm2");
    const Level1Call call{op, DType::F16, n, 0.5};
    if (const std::string why = blas.unsupported(call); !why.empty()) {
      EXPECT_EQ(why.rfind("none: this cuBLAS lacks cublas", 0), 0u) << why;
      continue;
    }
    q.upload(y, std::span<const half>(hy));
    q.upload(theirs, std::span<const half>(std::vector<half>{poison()}));
    blas.level1(q, call, interop::native_buffer(x), interop::native_buffer(y), interop::native_buffer(theirs)).wait();
    if (op == Level1Op::Axpy) {
      const std::vector<half> got = q.download(y);
      for (std::int64_t i = 0; i < n; ++i)  // 0.5 x + y: sixteenths below 2, exact in f16
        ASSERT_EQ(float(got[i]), 0.5f * float(hx[i]) + float(hy[i])) << i;
      continue;
    }
    q.upload(y, std::span<const half>(hy));
    if (op == Level1Op::Dot) dot(q, n, x, 1, y, 1, ours).wait();
    else nrm2(q, n, x, 1, ours).wait();
    const float a = float(q.download(ours)[0]), b = float(q.download(theirs)[0]);
    if (op == Level1Op::Dot) {
      EXPECT_EQ(b, float(half(float(dot_want))));
      EXPECT_EQ(a, b);
    } else {
      EXPECT_NEAR(b, std::sqrt(sq), tool::kHalfResultTolerance * std::sqrt(sq));
      EXPECT_NEAR(a, b, tool::kHalfResultTolerance * std::fabs(b));
    }
  }

  // gemv through cublasGemmEx (n = 1): column-major 37 x 37, alpha 0.5,
  // beta 0 (y poisoned: it must not be read).
  const std::int64_t m = 37;
  const std::vector<half> ha = eighths(std::size_t(m * m), 5), hv = eighths(std::size_t(m), 7);
  Buffer<half> a = ctx.alloc<half>(std::size_t(m * m)), v = ctx.alloc<half>(std::size_t(m));
  Buffer<half> y1 = ctx.alloc<half>(std::size_t(m)), y2 = ctx.alloc<half>(std::size_t(m));
  q.upload(a, std::span<const half>(ha));
  q.upload(v, std::span<const half>(hv));
  for (Level2Op op : {Level2Op::Gemv, Level2Op::GemvT}) {
    SCOPED_TRACE(op == Level2Op::Gemv ? "gemv" : "gemv_t");
    const Level2Call call{op, DType::F16, m};
    ASSERT_EQ(blas.unsupported(call), "");
    q.upload(y2, std::span<const half>(std::vector<half>(std::size_t(m), poison())));
    blas.level2(q, call, interop::native_buffer(a), interop::native_buffer(v), interop::native_buffer(y2)).wait();
    const BlasTranspose t = op == Level2Op::GemvT ? BlasTranspose::Yes : BlasTranspose::No;
    gemv<half>(q, Layout::ColMajor, t, m, m, half(0.5f), a, m, v, 1, half(0.0f), y1, 1).wait();
    const std::vector<half> mine = q.download(y1), got = q.download(y2);
    for (std::int64_t i = 0; i < m; ++i) {
      double sum = 0;
      for (std::int64_t j = 0; j < m; ++j)
        sum += double(float(ha[std::size_t(op == Level2Op::GemvT ? j + i * m : i + j * m)])) * double(float(hv[j]));
      ASSERT_EQ(float(got[i]), float(half(float(0.5 * sum)))) << i;
      ASSERT_EQ(float(mine[i]), float(got[i])) << i;
    }
  }
}
