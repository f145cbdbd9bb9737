#include "bench_gemm.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "gemm_check.hpp"
#include "reference_blas.hpp"

namespace optune::tool {

namespace {

struct Case {
  std::string group;  // square, transpose, inference, batched
  DType dtype;
  GemmShape shape;
  bool tf32 = false;  // f32 with GemmCompute::FastTF32
};

// "f32", "f16", "bf16", "f64", or "tf32" for the FastTF32 rows.
std::string type_name(const Case& c) { return c.tf32 ? "tf32" : std::string(dtype_name(c.dtype)); }

std::string trans_name(const GemmShape& s) {
  return std::string(s.trans_a == Transpose::Yes ? "T" : "N") + (s.trans_b == Transpose::Yes ? "T" : "N");
}

std::string shape_name(const GemmShape& s) {
  std::string t = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
  return s.batch > 1 ? std::to_string(s.batch) + " x " + t : t;
}

std::string case_name(const Case& c) {
  return c.group + " " + type_name(c) + " " + trans_name(c.shape) + " " + shape_name(c.shape);
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return v.empty() || std::find(v.begin(), v.end(), x) != v.end();
}

// Part 8 of the GEMM issue; on CPUs every dimension shrinks (8192 -> 1024,
// 4096 -> 512, 128 -> 32, the batches likewise) so PoCL finishes in seconds.
std::vector<Case> make_cases(const Capabilities& caps, const GemmBenchOptions& o, bool cpu) {
  const std::int64_t big = cpu ? 512 : 4096, thin = cpu ? 32 : 128;
  std::vector<std::int64_t> squares = cpu ? std::vector<std::int64_t>{64, 128, 256, 512, 1024}
                                          : std::vector<std::int64_t>{256, 512, 1024, 2048, 4096, 8192};
  if (o.quick) squares = cpu ? std::vector<std::int64_t>{512} : std::vector<std::int64_t>{1024, 4096, 8192};
  if (!o.sizes.empty()) squares = o.sizes;
  const bool tensor_cores = caps.backend == Backend::CUDA && caps.compute_capability_major >= 8;  // tf32
  std::vector<DType> types{DType::F32};
  if (caps.fp16 && !o.quick) types.push_back(DType::F16);
  if (caps.fp64 && !o.quick) types.push_back(DType::F64);

  std::vector<Case> cases;
  if (!o.product.empty()) {  // the user's products (M,N,K triples) with --gemm-trans, in every type asked for
    if (o.product.size() % 3)
      throw std::invalid_argument("--gemm-product takes M,N,K triples: " + std::to_string(o.product.size()) +
                                  " values given");
    const std::size_t count = o.product.size() / 3;
    if (o.trans.empty() || (o.trans.size() != 1 && o.trans.size() != count))
      throw std::invalid_argument("--gemm-trans takes one transpose pair, or one per product: " +
                                  std::to_string(o.trans.size()) + " given for " + std::to_string(count) + " products");
    // bf16 runs everywhere (storage elsewhere), tf32 where the batched and
    // inference groups run it (CUDA sm_80+), as in those groups.
    std::vector<std::pair<DType, bool>> product_types;
    for (DType t : types) product_types.push_back({t, false});
    product_types.push_back({DType::BF16, false});
    if (tensor_cores) product_types.push_back({DType::F32, true});
    for (const auto& [t, tf32] : product_types)
      if (contains(o.dtypes, tf32 ? std::string("tf32") : std::string(dtype_name(t))))
        for (std::size_t i = 0; i < count; ++i) {
          const std::string& tr = o.trans[o.trans.size() == 1 ? 0 : i];
          const Transpose ta = tr[0] == 'T' ? Transpose::Yes : Transpose::No;
          const Transpose tb = tr[1] == 'T' ? Transpose::Yes : Transpose::No;
          cases.push_back(
              {"product", t, {ta, tb, o.product[3 * i], o.product[3 * i + 1], o.product[3 * i + 2], 1}, tf32});
        }
    return cases;
  }
  for (DType t : types) {
    if (!contains(o.dtypes, std::string(dtype_name(t)))) continue;
    if (contains(o.groups, "square"))
      for (std::int64_t s : squares) cases.push_back({"square", t, {Transpose::No, Transpose::No, s, s, s, 1}});
    if (o.quick) continue;
    if (contains(o.groups, "transpose"))
      for (Transpose ta : {Transpose::No, Transpose::Yes})
        for (Transpose tb : {Transpose::No, Transpose::Yes}) cases.push_back({"transpose", t, {ta, tb, big, big, big, 1}});
    if (contains(o.groups, "inference")) {
      cases.push_back({"inference", t, {Transpose::No, Transpose::No, thin, big, big, 1}});
      cases.push_back({"inference", t, {Transpose::No, Transpose::No, big, thin, big, 1}});
      cases.push_back({"inference", t, {Transpose::No, Transpose::No, big, big, thin, 1}});
    }
    // Decode-time products: M tokens against a wide B that is read once, so
    // the copy ceiling bounds them (f32 and f16).
    // NN reads B (K x N) along N; NT is x W^T with W stored N x K (a
    // framework's linear layer), which reads B along K.
    if (contains(o.groups, "thin") && t != DType::F64)
      for (Transpose tb : {Transpose::No, Transpose::Yes})
        for (std::int64_t m : {1, 8, 16, 32, 128})
          if (tb == Transpose::No || m <= 16)
            cases.push_back({"thin", t, {Transpose::No, tb, cpu ? std::max<std::int64_t>(1, m / 4) : m, big, big, 1}});
  }
  // Batched: f32 (the targets are f32), plus --quick's first one.
  const std::int64_t small = cpu ? 32 : 64, medium = cpu ? 128 : 512;
  if (contains(o.dtypes, "f32") && contains(o.groups, "batched")) {
    cases.push_back({"batched", DType::F32, {Transpose::No, Transpose::No, small, small, small, cpu ? 256 : 4096}});
    if (!o.quick)
      cases.push_back({"batched", DType::F32, {Transpose::No, Transpose::No, medium, medium, medium, cpu ? 8 : 64}});
  }
  // bf16 (every device: storage elsewhere) and tf32 (f32 inputs on the tensor
  // cores, CUDA sm_80+ only): squares from 1024, the inference shapes and
  // batched; bf16 C, f32 C for tf32.
  if (o.quick) return cases;
  for (bool tf32 : {false, true}) {
    if ((tf32 && !tensor_cores) || !contains(o.dtypes, tf32 ? "tf32" : "bf16")) continue;
    const DType t = tf32 ? DType::F32 : DType::BF16;
    const auto add = [&](const char* group, GemmShape s) { cases.push_back({group, t, s, tf32}); };
    if (contains(o.groups, "square"))
      for (std::int64_t s : squares)
        if (s >= (cpu ? 256 : 1024)) add("square", {Transpose::No, Transpose::No, s, s, s, 1});
    if (contains(o.groups, "inference")) {
      add("inference", {Transpose::No, Transpose::No, thin, big, big, 1});
      add("inference", {Transpose::No, Transpose::No, big, thin, big, 1});
      add("inference", {Transpose::No, Transpose::No, big, big, thin, 1});
    }
    if (contains(o.groups, "batched")) {
      add("batched", {Transpose::No, Transpose::No, small, small, small, cpu ? 256 : 4096});
      add("batched", {Transpose::No, Transpose::No, medium, medium, medium, cpu ? 8 : 64});
    }
  }
  return cases;
}

struct RowContext {
  const Queue& q;
  const Ceilings& ceilings;
  ReferenceBlas* reference;  // null: not available
  std::string reference_reason;
  int runs;
  bool quiet;
};

// "    params: ..." under a row, wrapped at the spaces to 120 columns.
void print_parameters(const std::string& text, double mismatch_tolerance) {
  std::string line = "    params:";
  if (mismatch_tolerance > 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " (MISMATCH: beyond the tolerance %.1e)", mismatch_tolerance);
    line += buf;
  }
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(at, end - at);
    if (line.size() + 1 + word.size() > 120 && line.size() > 12) {
      std::printf("%s\n", line.c_str());
      line = "           ";
    }
    line += " " + word;
    at = end + 1;
  }
  std::printf("%s\n", line.c_str());
}

// bf16 against the f16 FMA rate (the same 16-bit pipes' peak), tf32 the f32 one.
double fma_ceiling(const Ceilings& c, DType t) {
  return c.fma_gflops[t == DType::F16 || t == DType::BF16 ? 1 : t == DType::F64 ? 2 : 0];
}

// f16, bf16 and tf32 rows against the tensor cores' rate for the type where
// it was measured (CUDA sm_80+); 0 for other rows and devices.
double tensor_ceiling(const Ceilings& c, const Case& cs) {
  if (cs.tf32) return c.tensor_gflops[2];
  return cs.dtype == DType::F16 ? c.tensor_gflops[0] : cs.dtype == DType::BF16 ? c.tensor_gflops[1] : 0.0;
}

// The same bytes moved by one copy (half of them read, half written, as the
// copy ceiling counts them), timed as the rows are: the thin rows' bound at
// their own size, where a launch's fixed cost weighs (a copy of 64 MiB does
// not reach the ceiling measured with 1 GiB buffers).
double same_size_copy_s(const Queue& q, double bytes, int runs) {
  const auto n = std::max<std::size_t>(1, static_cast<std::size_t>(bytes / 8));
  Context ctx = q.context();
  Buffer<std::uint32_t> src = ctx.alloc<std::uint32_t>(n), dst = ctx.alloc<std::uint32_t>(n);
  const std::vector<std::uint32_t> zeros(n, 0u);
  q.upload(src, std::span<const std::uint32_t>(zeros));
  return time_events([&] { return q.copy(src, dst); }, 2, runs).median_s;
}

template <class T>
nlohmann::json run_case(const RowContext& rc, const Case& cs) {
  const GemmShape& s = cs.shape;
  const Queue& q = rc.q;
  Context ctx = q.context();
  const auto na = std::size_t(s.size_a() * s.batch), nb = std::size_t(s.size_b() * s.batch);
  const auto nc = std::size_t(s.size_c() * s.batch);
  // Fresh operands per row; C starts random too (beta = 0 must not read it).
  const std::uint64_t seed = std::uint64_t(s.m * 131 + s.n * 17 + s.k + s.batch * 7919);
  const std::vector<T> ha = random_matrix<T>(na, seed), hb = random_matrix<T>(nb, seed + 1);
  const std::vector<T> hc = random_matrix<T>(nc, seed + 2);
  Buffer<T> a = ctx.alloc<T>(na), b = ctx.alloc<T>(nb), c = ctx.alloc<T>(nc);
  q.upload(a, std::span<const T>(ha));
  q.upload(b, std::span<const T>(hb));
  q.upload(c, std::span<const T>(hc));

  const double tol = gemm_tolerance(cs.dtype, s.k, cs.tf32);
  GemmOptions options;
  if (cs.tf32) options.compute = GemmCompute::FastTF32;
  nlohmann::json row{{"group", cs.group}, {"dtype", type_name(cs)}, {"layout", "row-major"},
                     {"trans", trans_name(s)}, {"m", s.m}, {"n", s.n}, {"k", s.k}, {"batch", s.batch},
                     {"flops", s.flops()}, {"tolerance", tol}};
  auto ours = [&] {
    if (s.batch > 1)
      return gemm_strided_batched<T>(q, Layout::RowMajor, s.trans_a, s.trans_b, s.m, s.n, s.k, 1.0, a, s.lda(),
                                     s.size_a(), b, s.ldb(), s.size_b(), 0.0, c, s.ldc(), s.size_c(), s.batch,
                                     options);
    return gemm<T>(q, Layout::RowMajor, s.trans_a, s.trans_b, s.m, s.n, s.k, 1.0, a, s.lda(), b, s.ldb(), 0.0, c,
                   s.ldc(), options);
  };
  const Timing t = time_events(ours, 2, rc.runs);
  const double gflops = s.flops() / t.median_s * 1e-9;
  const double fma = fma_ceiling(rc.ceilings, cs.dtype), tensor = tensor_ceiling(rc.ceilings, cs);
  const double ceiling = tensor > 0 ? tensor : fma;  // the % column's
  const std::vector<T> our_c = q.download(c);
  const double our_spot = spot_check(s, ha, hb, our_c);
  row["median_us"] = t.median_s * 1e6;
  row["min_us"] = t.min_s * 1e6;
  row["gflops"] = gflops;
  row["fraction_of_fma_ceiling"] = fma > 0 ? gflops / fma : 0.0;
  row["fraction_of_tensor_ceiling"] = tensor > 0 ? gflops / tensor : 0.0;
  // Reading A and B once and writing C once: what bounds the thin products.
  const double operand_bytes = double(sizeof(T)) * double(na + nb + nc);
  row["operand_bytes"] = operand_bytes;
  row["fraction_of_copy_ceiling"] =
      rc.ceilings.copy_gbs > 0 ? operand_bytes / t.median_s * 1e-9 / rc.ceilings.copy_gbs : 0.0;
  const bool thin = cs.group == "thin" || std::min(s.m, s.n) <= 16;
  if (thin) {
    const double copy_s = same_size_copy_s(q, operand_bytes, rc.runs);
    row["same_size_copy_us"] = copy_s * 1e6;
    row["fraction_of_same_size_copy"] = copy_s / t.median_s;
  }
  row["spot_check_error"] = our_spot;
  row["parameters"] = t.parameters;
  bool flagged = !(our_spot <= tol);

  nlohmann::json ref{{"available", false}};
  std::string why = rc.reference ? rc.reference->unsupported(cs.dtype) : rc.reference_reason;
  if (rc.reference && why.empty()) {
    try {
      Buffer<T> cr = ctx.alloc<T>(nc);
      q.upload(cr, std::span<const T>(hc));
      GemmCall call;
      call.compute = options.compute;
      call.trans_a = s.trans_a;
      call.trans_b = s.trans_b;
      call.m = s.m;
      call.n = s.n;
      call.k = s.k;
      call.lda = s.lda();
      call.ldb = s.ldb();
      call.ldc = s.ldc();
      call.batch = s.batch;
      call.stride_a = s.size_a();
      call.stride_b = s.size_b();
      call.stride_c = s.size_c();
      const Timing tr = time_events([&] { return rc.reference->gemm(q, call, a, b, cr); }, 2, rc.runs);
      const std::vector<T> ref_c = q.download(cr);
      const double diff = max_relative_difference(our_c, ref_c);
      const double ref_spot = spot_check(s, ha, hb, ref_c);
      ref = {{"available", true},
             {"median_us", tr.median_s * 1e6},
             {"min_us", tr.min_s * 1e6},
             {"gflops", s.flops() / tr.median_s * 1e-9},
             {"speed_ratio", tr.median_s / t.median_s},
             {"max_relative_difference", diff},
             {"spot_check_error", ref_spot}};
      flagged = flagged || !(diff <= tol);
    } catch (const Error& e) {
      why = std::string("error: ") + e.what();
    }
  }
  if (!ref["available"].get<bool>()) ref["reason"] = why;
  row["reference"] = ref;
  row["flagged"] = flagged;

  if (!rc.quiet) {
    // One row of at most 120 columns; the parameters on an indented line below.
    std::printf("%-9s %-4s %-2s %15s %10.1f %9.1f %6.1f%%", cs.group.c_str(), type_name(cs).c_str(),
                trans_name(s).c_str(), shape_name(s).c_str(), t.median_s * 1e6, gflops,
                thin ? 100 * row["fraction_of_copy_ceiling"].get<double>()
                                   : ceiling > 0 ? 100 * gflops / ceiling : 0.0);
    if (ref["available"].get<bool>())
      std::printf(" %10.1f %9.1f %6.2fx %8.1e", ref["median_us"].get<double>(), ref["gflops"].get<double>(),
                  ref["speed_ratio"].get<double>(), ref["max_relative_difference"].get<double>());
    else
      std::printf(" %10s %9s %7s %8s", "-", "-", "-", "-");
    std::printf("%s\n", flagged ? "  MISMATCH" : "");
    print_parameters(t.parameters_text, flagged ? tol : 0.0);
    std::fflush(stdout);
  }
  return row;
}

nlohmann::json run_row(const RowContext& rc, const Case& cs) {
  try {
    switch (cs.dtype) {
      case DType::F16: return run_case<half>(rc, cs);
      case DType::BF16: return run_case<bfloat16>(rc, cs);
      case DType::F64: return run_case<double>(rc, cs);
      default: return run_case<float>(rc, cs);
    }
  } catch (const Error& e) {  // one failing row (memory, an unsupported shape) must not end the suite
    if (!rc.quiet)
      std::printf("%-9s %-4s %-2s %15s  error (%s): %s\n", cs.group.c_str(), type_name(cs).c_str(),
                  trans_name(cs.shape).c_str(), shape_name(cs.shape).c_str(), status_name(e.status()), e.what());
    return {{"group", cs.group}, {"dtype", type_name(cs)}, {"trans", trans_name(cs.shape)},
            {"m", cs.shape.m}, {"n", cs.shape.n}, {"k", cs.shape.k}, {"batch", cs.shape.batch},
            {"error", std::string(status_name(e.status())) + ": " + e.what()}};
  }
}

}  // namespace

std::vector<std::string> gemm_case_names(const Capabilities& caps, const GemmBenchOptions& o) {
  std::vector<std::string> names;
  for (const Case& cs : make_cases(caps, o, caps.type == DeviceType::CPU)) names.push_back(case_name(cs));
  return names;
}

nlohmann::json bench_gemm(const Queue& q, const Ceilings& c, const GemmBenchOptions& o) {
  const Capabilities& caps = q.device().caps();
  const bool cpu = caps.type == DeviceType::CPU;
  ReferenceOpen ref;
  if (o.reference) {
    ref = open_reference_blas(q);
  } else {
    ref.reason = "not run (--no-reference)";
  }
  RowContext rc{q, c, ref.blas.get(), ref.reason, o.runs > 0 ? o.runs : (cpu ? 5 : 20), o.quiet};
  const std::string reference = ref.blas ? ref.blas->name() : ref.reason;
  const char* scaled = "CPU device: shapes scaled down (squares 64-1024, transposes at 512, inference 32x512x512 "
                       "and its turns, batches 256 x 32^3 and 8 x 128^3)";
  std::vector<Case> cases = make_cases(caps, o, cpu);
  std::erase_if(cases, [&](const Case& cs) { return !selected(case_name(cs), o.only); });
  if (!o.quiet) {
    std::printf("\ngemm: C = A B, row-major, alpha 1, beta 0; time = median of %d device-timed runs after 2 warm-ups\n",
                rc.runs);
    std::printf("reference: %s\n", reference.c_str());
    std::printf("GFLOP/s counts 2mnk per product; peak%% is of the measured FMA ceiling (2 flops per FMA), or for\n"
                "f16, bf16 and tf32 where measured (CUDA sm_80+) of the tensor cores' ceiling for the type (bench\n"
                "ceilings: mma.sync or wgmma, f32 accumulation); vs ref > 1: optune faster; diff = max|ours - ref| /\n"
                "max|ref|; thin rows (and --gemm-product rows whose M or N is at most 16): the %% column is of the\n"
                "copy ceiling, for reading A and B and writing C once (the JSON adds a copy of those bytes timed\n"
                "alike: same_size_copy_us, fraction_of_same_size_copy);\n"
                "under each row, the kernel parameters and the database level they came from;\n"
                "bf16: bf16 A, B, C, f32 accumulation (reference: cublasGemmEx CUDA_R_16BF, CUBLAS_COMPUTE_32F);\n"
                "tf32: f32 with GemmCompute::FastTF32, CUDA sm_80+ only (reference: cublasGemmEx CUDA_R_32F,\n"
                "CUBLAS_COMPUTE_32F_FAST_TF32); without a tensor ceiling their %% is of the f16 / f32 FMA ceiling\n");
    if (cpu) {  // the JSON's note on two lines
      const std::string note = scaled;
      const std::size_t cut = note.find(" and its turns");
      std::printf("%s\n%s\n", note.substr(0, cut).c_str(), note.substr(cut + 1).c_str());
    }
    if (!caps.fp16 && contains(o.dtypes, "f16")) std::printf("f16: skipped, the device has no half arithmetic\n");
    if (!caps.fp64 && contains(o.dtypes, "f64")) std::printf("f64: skipped, the device has no fp64\n");
    std::printf("%-9s %-4s %-2s %15s %10s %9s %7s %10s %9s %7s %8s\n", "gemm", "type", "op", "m x n x k",
                "time us", "GFLOP/s", "peak%", "ref us", "ref GF/s", "vs ref", "diff");
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const Case& cs : cases) rows.push_back(run_row(rc, cs));
  nlohmann::json out{{"reference", reference},
                     {"reference_available", ref.blas != nullptr},
                     {"runs", rc.runs},
                     {"quick", o.quick},
                     {"scaled_down", cpu},
                     {"rows", rows}};
  if (cpu) out["note"] = scaled;
  return out;
}

}  // namespace optune::tool
