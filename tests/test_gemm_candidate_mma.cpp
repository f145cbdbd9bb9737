// The tensor-core candidates "mma" (gemm_mma.cl through GemmMmaFamily and
// ops/gemm_mma_candidate.cpp) and "wgmma" (gemm_wgmma.cl, GemmWgmmaFamily,
// ops/gemm_wgmma_candidate.cpp), through the public optune::gemm with the
// candidate forced, against the double-precision reference
// (reference/gemm_check.hpp: NaN around A and B and in C where beta = 0, a
// sentinel around C): f16, both layouts, every transposition, odd sizes,
// padded leading dimensions and offsets (multiples of 8: the candidate's
// condition), the alpha/beta grid, bias and activations, strided and list
// batches, and the routine's choice of it. Most cases ask for f32
// accumulation, so the reference's bound is the f32 one (unit roundoff
// 2^-24 over k terms, plus the f16 rounding of the result): the tensor
// cores multiply f16 exactly and accumulate in f32.
//
// The descriptors' rules run everywhere (no device needed); the rest on
// CUDA devices of compute capability 8.0 or newer for mma, 9.0 for wgmma
// (the gpu label's entry, OPTUNE_DEVICE=cuda:0), skipping elsewhere.
#include <limits>
#include <utility>

#include "runtime/tensor_map.hpp"
#include "support/gemm_fixture.hpp"

using namespace optune;
using ref::GemmCase;
using detail::GemmForce;
using detail::Params;

namespace {

const detail::GemmMmaFamily& fam() { return detail::families::gemm_mma(); }

// "" or the descriptor's reason, for p completed with the defaults.
std::string why(const Params& p, const Capabilities& caps, const detail::GemmProblem& pr) {
  return fam().check(fam().complete(p, caps), caps, pr);
}

detail::GemmProblem f16(std::int64_t m, std::int64_t n, std::int64_t k) {
  return test::dense_problem(DType::F16, m, n, k);
}

// Small tiles, so that small problems span several tiles along M, N and K.
const Params kSmallTiles{{"BM", 64}, {"BN", 64}, {"BK", 32}, {"WM", 32}, {"WN", 32}, {"STAGES", 4},
                         {"SWIZZLE_GROUP", 1}};

// A program's defines by name (the last of a name wins).
std::map<std::string, std::string> define_map(const detail::Defines& defines) {
  std::map<std::string, std::string> m;
  for (const auto& [k, v] : defines) m[k] = v;
  return m;
}

}  // namespace

// ---- the descriptor and the candidate's rules (no device needed) ----

TEST(GemmMmaDescriptor, DefaultsRunOnSm80AndNewer) {
  for (int cc : {80, 86, 90}) {
    const Capabilities caps = test::nvidia_caps(Backend::CUDA, cc);
    EXPECT_EQ(why({}, caps, f16(4096, 4096, 4096)), "") << "sm_" << cc;
    EXPECT_EQ(fam().dtypes(caps), cc >= 90 ? (std::vector<DType>{DType::F16, DType::BF16, DType::F32, DType::F64})
                                           : (std::vector<DType>{DType::F16, DType::BF16, DType::F32}));
    EXPECT_EQ(why({}, caps, test::dense_problem(DType::BF16, 4096, 4096, 4096)), "") << "bf16 sm_" << cc;
  }
  const Params d = fam().defaults(test::nvidia_caps(Backend::CUDA, 90));
  EXPECT_EQ(d, (Params{{"BM", 128}, {"BN", 128}, {"BK", 32}, {"WM", 64}, {"WN", 64}, {"STAGES", 3},
                       {"SWIZZLE_GROUP", 8}, {"FULL_TILES", 2}, {"SPLITK", 0}, {"SK_FILL", 1}, {"SK_MINK", 256},
                       {"FUSE", 0}, {"TILE_FILL", 0}, {"X3_FILL_MAX", 0}}));
  EXPECT_EQ(detail::GemmMmaFamily::smem_bytes(d), 48u * 1024u);
  EXPECT_EQ(why(kSmallTiles, test::nvidia_caps(Backend::CUDA, 80), f16(1, 1, 1)), "");
}

TEST(GemmMmaDescriptor, Refusals) {
  const Capabilities sm90 = test::nvidia_caps(Backend::CUDA, 90);
  const auto refused = [](const std::string& reason, const std::string& part, const char* what) {
    EXPECT_NE(reason.find(part), std::string::npos) << what << ": '" << reason << "'";
  };
  refused(why({}, test::nvidia_caps(Backend::OpenCL, 90), f16(256, 256, 256)), "sm_80", "OpenCL");
  refused(why({}, test::nvidia_caps(Backend::CUDA, 75), f16(256, 256, 256)), "sm_80", "sm_75");
  // f64: sm_90's m16n8k8 f64 shape, f64 C, 8-deep mma steps; its stages
  // may exceed 48 KiB (dynamic shared memory) up to the device's opt-in limit.
  const detail::GemmProblem f64 = test::dense_problem(DType::F64, 256, 256, 256);
  refused(why({}, test::nvidia_caps(Backend::CUDA, 80), f64), "sm_90", "f64 on sm_80");
  detail::GemmProblem f64_to_f32 = f64;
  f64_to_f32.c_dtype = DType::F32;
  refused(why({{"BK", 16}, {"WN", 32}}, sm90, f64_to_f32), "write f64", "f64 to f32");
  EXPECT_EQ(why({{"BK", 16}, {"WN", 32}}, sm90, f64), "");
  refused(why({{"BK", 16}}, sm90, f64), "2048", "f64 with 64 x 64 warp tiles (128 accumulators)");
  refused(why({{"BK", 64}, {"WN", 32}, {"STAGES", 5}}, sm90, f64), "opt-in", "f64, 640 KiB of stages");
  // f32 (tf32): 4-byte elements, so the f16 defaults' stages (96 KiB) and a
  // 32-deep stage of 4-byte chunks are refused; tf32 writes f32 only.
  const detail::GemmProblem f32 = test::dense_problem(DType::F32, 256, 256, 256);
  refused(why({}, sm90, f32), "48 KiB", "f32 with the f16 defaults");
  EXPECT_EQ(why({{"BK", 16}, {"WN", 32}}, sm90, f32), "");
  refused(why({{"BK", 16}, {"WN", 32}, {"STAGES", 4}}, sm90, f32), "48 KiB", "f32, four stages");
  refused(why(kSmallTiles, sm90, f32), "48 KiB", "f32 small tiles (4 x 128 x 32 x 4 bytes)");
  detail::GemmProblem f32_to_f16 = f32;
  f32_to_f16.c_dtype = DType::F16;
  refused(why({{"BK", 16}, {"WN", 32}}, sm90, f32_to_f16), "write f32", "tf32 to f16");
  refused(why({{"BK", 16}}, sm90, f16(256, 256, 256)), "mma steps", "BK 16 for f16");
  // Stages beyond 48 KiB need dynamic shared memory.
  for (const Params& big : {Params{{"BM", 256}}, Params{{"STAGES", 4}}, Params{{"BK", 64}},
                            Params{{"BM", 256}, {"BN", 256}, {"STAGES", 2}}})
    refused(why(big, sm90, f16(4096, 4096, 4096)), "48 KiB", detail::params_to_json(big).c_str());
  refused(why({{"WM", 32}, {"WN", 32}, {"BM", 256}, {"BN", 256}}, sm90, f16(64, 64, 64)), "work-group",
          "2048 work-items");
  refused(why({{"BM", 64}, {"WM", 64}, {"BN", 64}, {"WN", 64}, {"STAGES", 4}, {"BK", 64}}, sm90, f16(64, 64, 64)),
          "48 KiB", "64 KiB of 64 x 64 x 64 tiles");
  // Grid y: at most 65535 tiles along M.
  refused(why({}, sm90, f16(65536 * 128, 8, 8)), "65535", "tall M");
  EXPECT_EQ(why({{"BM", 256}, {"BN", 64}, {"STAGES", 2}}, sm90, f16(65536 * 128, 8, 8)), "");
  // Thin tiles (one warp tall or wide) for products with a thin side.
  EXPECT_EQ(why({{"BM", 16}, {"WM", 16}, {"BN", 128}, {"WN", 32}, {"STAGES", 4}}, sm90, f16(16, 4096, 4096)), "");
  EXPECT_EQ(why({{"BM", 128}, {"WM", 32}, {"BN", 16}, {"WN", 16}}, sm90, f16(4096, 8, 4096)), "");
  refused(why({{"BM", 16}, {"WM", 32}}, sm90, f16(16, 4096, 4096)), "multiple of WM", "BM 16 under WM 32");
  Params bad = fam().defaults(sm90);
  bad["BN"] = 96;  // not a candidate value
  EXPECT_NE(fam().check(bad, sm90, f16(64, 64, 64)), "");
  EXPECT_TRUE(fam().dtypes(test::nvidia_caps(Backend::CUDA, 75)).empty());
  EXPECT_TRUE(fam().dtypes(test::nvidia_caps(Backend::OpenCL, 90)).empty());
}

TEST(GemmMmaDescriptor, FitGeometryAndDefines) {
  const Capabilities sm90 = test::nvidia_caps(Backend::CUDA, 90);
  detail::GemmProblem pr = f16(300, 520, 64);
  // Stored values that cannot run fall back to the defaults; nothing runs f32.
  Params settled_defaults = fam().defaults(sm90);
  settled_defaults["FULL_TILES"] = 0;  // settled: 2 is 0 for f16
  EXPECT_EQ(fam().fit({{"BM", 256}, {"BN", 256}}, sm90, pr), settled_defaults);
  Params small_fitted = fam().complete(kSmallTiles, sm90);
  small_fitted["FULL_TILES"] = 0;
  EXPECT_EQ(fam().fit(kSmallTiles, sm90, pr), small_fitted);
  EXPECT_FALSE(fam().fit_or_none({}, test::nvidia_caps(Backend::CUDA, 80), test::dense_problem(DType::F64, 64, 64, 64)));
  // f64: 128 x 128 tiles of eight 64 x 32 warps, 96 KiB of dynamic shared memory.
  const detail::GemmProblem f64 = test::dense_problem(DType::F64, 300, 200, 64);
  const auto p64 = fam().fit_or_none({}, sm90, f64);
  ASSERT_TRUE(p64);
  EXPECT_EQ(p64->at("BK"), 16);
  EXPECT_EQ(p64->at("WN"), 32);
  const detail::Geometry g64 = fam().geometry(*p64, sm90, f64);
  EXPECT_EQ(g64.local[0], 256u);
  EXPECT_EQ(g64.shared_bytes, 3u * 256u * 16u * 8u);
  EXPECT_EQ(fam().geometry(fam().defaults(sm90), sm90, pr).shared_bytes, 0u);  // f16: static
  std::map<std::string, std::string> d64 = define_map(fam().defines(*p64, f64));
  EXPECT_EQ(d64["MMA_F64"], "1");
  EXPECT_EQ(p64->at("FULL_TILES"), 1);  // settled: 2 is 1 for f64
  EXPECT_EQ(d64["FULL_TILES"], "1");
  EXPECT_EQ(d64["MMA_TF32"], "0");
  EXPECT_EQ(d64["COMP"], "double");
  EXPECT_EQ(d64["EPI_DOUBLE"], "1");
  // f32 (tf32): the kernel's tf32 defaults when the stored values do not fit.
  const auto tf32 = fam().fit_or_none({}, sm90, test::dense_problem(DType::F32, 64, 64, 64));
  ASSERT_TRUE(tf32);
  EXPECT_EQ(tf32->at("BK"), 16);
  EXPECT_EQ(tf32->at("WN"), 32);
  EXPECT_THROW(fam().fit({}, test::nvidia_caps(Backend::CUDA, 75), pr), Error);

  pr.batch = 7;
  const detail::Geometry g = fam().geometry(fam().defaults(sm90), sm90, pr);
  EXPECT_EQ(g.dims, 3u);
  EXPECT_EQ(g.local[0], 128u);  // 2 x 2 warps of 64 x 64
  EXPECT_EQ(g.global[0], 5u * 128u);
  EXPECT_EQ(g.global[1], 3u);
  EXPECT_EQ(g.global[2], 7u);
  EXPECT_EQ(fam().geometry(kSmallTiles, sm90, pr).local[0], 128u);  // 2 x 2 warps of 32 x 32

  pr.comp_half = true, pr.trans_b = true;
  std::map<std::string, std::string> d;
  for (const auto& [k, v] : fam().defines(fam().defaults(sm90), pr)) {
    EXPECT_FALSE(d.count(k)) << k << " defined twice";
    d[k] = v;
  }
  EXPECT_EQ(d["TYPE"], "half");
  EXPECT_EQ(d["HALF_STORAGE"], "1");
  EXPECT_EQ(d["COMP"], "float");  // f32 accumulation whatever comp_half says
  EXPECT_EQ(d["CTYPE"], "half");
  EXPECT_EQ(d["C_HALF_STORAGE"], "1");
  EXPECT_EQ(d["C_BF16_STORAGE"], "0");
  EXPECT_EQ(d["TRANS_A"], "0");
  EXPECT_EQ(d["TRANS_B"], "1");
  EXPECT_EQ(d["BM"], "128");
  EXPECT_EQ(d["SWIZZLE_GROUP"], "8");
  EXPECT_EQ(d["MMA_TF32"], "0");
  EXPECT_EQ(d["FULL_TILES"], "0");  // 2 (the default): untested copies for f64 only

  // bf16 A and B with an f32 C; f32 (tf32) with f32 C.
  detail::GemmProblem bf = test::dense_problem(DType::BF16, 256, 256, 256);
  bf.c_dtype = DType::F32;
  std::map<std::string, std::string> db = define_map(fam().defines(fam().defaults(sm90), bf));
  EXPECT_EQ(db["TYPE"], "bf16");
  EXPECT_EQ(db["BF16_STORAGE"], "1");
  EXPECT_EQ(db["HALF_STORAGE"], "0");
  EXPECT_EQ(db["CTYPE"], "float");
  EXPECT_EQ(db["C_HALF_STORAGE"], "0");
  EXPECT_EQ(db["C_BF16_STORAGE"], "0");
  EXPECT_EQ(db["MMA_TF32"], "0");
  std::map<std::string, std::string> dt =
      define_map(fam().defines(*tf32, test::dense_problem(DType::F32, 256, 256, 256)));
  EXPECT_EQ(dt["TYPE"], "float");
  EXPECT_EQ(dt["MMA_TF32"], "1");
  EXPECT_EQ(dt["CTYPE"], "float");
}

// A thin tile (a side below 64) from an entry serves products thin on its
// side, within one tile and filling more than a quarter of it; forced
// parameters run as given.
TEST(GemmMmaDescriptor, ThinTilesSuitTheirProducts) {
  const detail::GemmCandidate& mma = detail::gemm_candidate("mma");
  const Capabilities sm90 = test::nvidia_caps(Backend::CUDA, 90);
  const Params rows16{{"BM", 16}, {"WM", 16}, {"BN", 128}, {"WN", 32}, {"BK", 16}, {"STAGES", 4}};
  const Params cols16{{"BM", 128}, {"WM", 32}, {"BN", 16}, {"WN", 16}, {"BK", 16}, {"STAGES", 4}};
  const auto fits = [&](const Params& p, std::int64_t m, std::int64_t n, bool forced = false) {
    return mma.fit(p, forced, sm90, test::dense_problem(DType::F32, m, n, 4096)).has_value();
  };
  EXPECT_TRUE(fits(rows16, 16, 4096));
  EXPECT_TRUE(fits(rows16, 5, 4096));
  EXPECT_FALSE(fits(rows16, 17, 4096));  // the square tiles'
  EXPECT_FALSE(fits(rows16, 4, 4096));  // the thin kernel's
  EXPECT_FALSE(fits(rows16, 4096, 16));  // thin in N
  EXPECT_TRUE(fits(rows16, 4096, 16, true));
  EXPECT_TRUE(fits(cols16, 4096, 8));
  EXPECT_FALSE(fits(cols16, 8, 4096));
  const Params square{{"BM", 64}, {"WM", 32}, {"BN", 64}, {"WN", 32}, {"BK", 16}, {"STAGES", 4}};
  EXPECT_TRUE(fits(square, 1, 4096));  // square tiles: no condition
  EXPECT_TRUE(fits(square, 4096, 1));
}

TEST(GemmMmaDescriptor, CandidateAppliesToAlignedF16OnSm80) {
  const detail::GemmCandidate& mma = detail::gemm_candidate("mma");
  EXPECT_EQ(mma.id(), 3);
  EXPECT_EQ(&mma.family(), &fam());
  // After thin (which only takes thin products) and wgmma, before tiled.
  const auto& order = detail::gemm_candidates();
  EXPECT_EQ(order[0], &detail::thin_candidate());
  EXPECT_EQ(order[1], &detail::gemm_candidate("wgmma"));
  EXPECT_EQ(order[2], &mma);
  const Capabilities sm90 = test::nvidia_caps(Backend::CUDA, 90);
  detail::GemmProblem pr = f16(1024, 1024, 1024);
  EXPECT_EQ(mma.applies(pr, sm90), "");
  EXPECT_NE(mma.applies(pr, test::nvidia_caps(Backend::CUDA, 75)), "");
  EXPECT_NE(mma.applies(pr, test::nvidia_caps(Backend::OpenCL, 90)), "");
  // f32 in tf32 when the call opts in, else as three tf32 products where K
  // >= 32 (which the routine takes only where its entry names KERNEL 3);
  // bf16 always; f64 on sm_90+, 16-byte aligned (2 doubles).
  detail::GemmProblem f32 = test::dense_problem(DType::F32, 1024, 1024, 1024);
  EXPECT_EQ(mma.applies(f32, sm90), "");
  EXPECT_NE(mma.applies(test::dense_problem(DType::F32, 1024, 1024, 28), sm90).find("K >= 32"), std::string::npos);
  EXPECT_FALSE(mma.preferred(f32, {{"INDIRECT_MIN", 0}, {"KERNEL", 0}}));
  f32.tf32 = true;
  detail::GemmProblem shallow_tf32 = test::dense_problem(DType::F32, 1024, 1024, 28);
  shallow_tf32.tf32 = true;
  EXPECT_EQ(mma.applies(shallow_tf32, sm90), "");
  EXPECT_EQ(mma.applies(f32, sm90), "");
  EXPECT_NE(mma.applies(f32, test::nvidia_caps(Backend::OpenCL, 90)), "");
  EXPECT_EQ(mma.applies(test::dense_problem(DType::BF16, 1024, 1024, 1024), sm90), "");
  detail::GemmProblem f64 = test::dense_problem(DType::F64, 1024, 1024, 1024);
  EXPECT_EQ(mma.applies(f64, sm90), "");
  EXPECT_NE(mma.applies(f64, test::nvidia_caps(Backend::CUDA, 80)).find("sm_90"), std::string::npos);
  f64.align_b = 1;
  EXPECT_NE(mma.applies(f64, sm90), "");
  // tf32 needs 16-byte alignment: 4 floats.
  f32.align_a = 4;
  EXPECT_EQ(mma.applies(f32, sm90), "");
  f32.align_b = 2;
  EXPECT_NE(mma.applies(f32, sm90), "");
  pr.comp_half = true;
  EXPECT_EQ(mma.applies(pr, sm90), "");
  for (std::int64_t align : {1, 2, 4}) {
    detail::GemmProblem a = pr, b = pr, c = pr;
    a.align_a = align, b.align_b = align, c.align_c = align;
    EXPECT_NE(mma.applies(a, sm90), "") << "A aligned to " << align;
    EXPECT_NE(mma.applies(b, sm90), "") << "B aligned to " << align;
    EXPECT_EQ(mma.applies(c, sm90), "") << "C has no condition";
  }
  // Preferred where the routine's threshold prefers the tiled kernel.
  EXPECT_TRUE(mma.preferred(pr, {{"INDIRECT_MIN", 384}, {"KERNEL", 0}}));
  EXPECT_FALSE(mma.preferred(f16(64, 64, 64), {{"INDIRECT_MIN", 384}, {"KERNEL", 0}}));
  EXPECT_TRUE(mma.needs({}, sm90, pr).passes.empty());
  const auto kernel = detail::families::gemm_routine().parameters(sm90)[1];
  EXPECT_EQ(kernel.name, "KERNEL");
  EXPECT_NE(std::find(kernel.values.begin(), kernel.values.end(), 3), kernel.values.end());
}

// ---- gemm_wgmma's descriptor and candidate (no device needed) ----

namespace {

const detail::GemmWgmmaFamily& wfam() { return detail::families::gemm_wgmma(); }
std::string wwhy(const Params& p, const Capabilities& caps, const detail::GemmProblem& pr) {
  return wfam().check(wfam().complete(p, caps), caps, pr);
}

}  // namespace

TEST(GemmWgmmaDescriptor, RulesGeometryAndDefines) {
  const Capabilities sm90 = test::nvidia_caps(Backend::CUDA, 90);
  EXPECT_EQ(wwhy({}, sm90, f16(4096, 4096, 4096)), "");
  EXPECT_EQ(wfam().dtypes(sm90), (std::vector<DType>{DType::F16, DType::BF16, DType::F32}));
  // sm_90a code runs on 9.0 only.
  for (const Capabilities& other : {test::nvidia_caps(Backend::CUDA, 80), test::nvidia_caps(Backend::CUDA, 100),
                                    test::nvidia_caps(Backend::OpenCL, 90)}) {
    EXPECT_NE(wwhy({}, other, f16(256, 256, 256)).find("9.0"), std::string::npos);
    EXPECT_TRUE(wfam().dtypes(other).empty());
  }
  EXPECT_NE(wwhy({}, sm90, test::dense_problem(DType::F32, 256, 256, 256)).find("f16"), std::string::npos);
  // 128 x 256 x 64 x 2 bytes per stage: four fit in 227 KiB, five do not.
  Params d = wfam().defaults(sm90);
  d["PERSIST"] = 0;  // a group per tile (the geometry below); the default walks (persistent groups)
  EXPECT_EQ(wfam().defaults(sm90), (Params{{"BN", 256}, {"STAGES", 4}, {"SWIZZLE_GROUP", 8}, {"PERSIST", 1},
                                           {"STORE", 0}, {"SPLITK", 1}, {"SK_FILL", 1}, {"SK_MINK", 256}}));
  EXPECT_EQ(detail::GemmWgmmaFamily::smem_bytes(d, f16(4096, 4096, 4096)), 4u * 384u * 128u + 1024u);
  EXPECT_NE(wwhy({{"STAGES", 5}}, sm90, f16(4096, 4096, 4096)).find("shared memory"), std::string::npos);
  EXPECT_EQ(wwhy({{"BN", 128}, {"STAGES", 6}}, sm90, f16(4096, 4096, 4096)), "");
  EXPECT_NE(wwhy({}, sm90, f16(65536 * 128, 8, 8)).find("65535"), std::string::npos);
  EXPECT_NE(wwhy({}, sm90, f16(8, 8, std::int64_t(1) << 31)).find("32-bit"), std::string::npos);
  EXPECT_EQ(wfam().fit({{"STAGES", 5}}, sm90, f16(300, 520, 64)), wfam().defaults(sm90));  // what cannot run: the defaults

  detail::GemmProblem pr = f16(300, 520, 64);
  pr.batch = 7, pr.trans_a = true;
  const detail::Geometry g = wfam().geometry(d, sm90, pr);
  EXPECT_EQ(g.local[0], 384u);
  EXPECT_EQ(g.global[0], 3u * 384u);
  EXPECT_EQ(g.global[1], 3u);
  EXPECT_EQ(g.global[2], 7u);
  EXPECT_EQ(g.shared_bytes, detail::GemmWgmmaFamily::smem_bytes(d, pr));
  EXPECT_FALSE(g.own_z);
  // Persistent: a group per multiprocessor (132 here), or per tile where
  // there are fewer; the kernel walks the products (the launches keep z).
  Capabilities h200 = sm90;
  h200.compute_units = 132;
  Params persist = d;
  persist["PERSIST"] = 1;
  const detail::Geometry gp = wfam().geometry(persist, h200, pr);
  EXPECT_EQ(gp.global[0], 3u * 3u * 7u * 384u);
  EXPECT_EQ(gp.global[1] * gp.global[2], 1u);
  EXPECT_TRUE(gp.own_z);
  EXPECT_EQ(wfam().geometry(persist, h200, f16(4096, 4096, 64)).global[0], 132u * 384u);
  persist["PERSIST"] = 2;
  EXPECT_NE(wwhy(persist, sm90, f16(4096, 4096, 64)).find("BN 128"), std::string::npos);
  persist["BN"] = 128;
  EXPECT_EQ(wwhy(persist, sm90, f16(4096, 4096, 64)), "");
  std::map<std::string, std::string> defs = define_map(wfam().defines(d, pr));
  EXPECT_EQ(defs["OPTUNE_NEED_SM90A"], "1");
  EXPECT_EQ(defs["COMP"], "float");
  EXPECT_EQ(defs["TRANS_A"], "1");
  EXPECT_EQ(defs["TRANS_B"], "0");
  EXPECT_EQ(defs["BN"], "256");
  EXPECT_EQ(defs["WG_TF32"], "0");
  EXPECT_EQ(defs["WG_RAW"], "0");
  EXPECT_EQ(defs.count("SPLITK"), 0u);  // one program whatever the split's count
  EXPECT_EQ(defs["WG_STORE"], "0");
  EXPECT_EQ(defs.count("STORE"), 0u);
  // STORE 1: C through the copy engine where its offset, leading dimension
  // and batch stride are 16-byte aligned and K is not split (four chunk
  // buffers of 8 KiB more: BN 256 with four stages still fits); else the
  // consumers' own stores, and no buffers.
  Params store = d;
  store["STORE"] = 1;
  EXPECT_EQ(wwhy(store, sm90, f16(4096, 4096, 4096)), "");
  EXPECT_EQ(detail::GemmWgmmaFamily::smem_bytes(store, f16(4096, 4096, 4096)), 4u * 384u * 128u + 1024u + 32768u);
  EXPECT_EQ(define_map(wfam().defines(store, pr))["WG_STORE"], "1");
  detail::GemmProblem odd_c = pr;
  odd_c.align_c = 4;  // 8 bytes of f16
  EXPECT_EQ(define_map(wfam().defines(store, odd_c))["WG_STORE"], "0");
  EXPECT_EQ(detail::GemmWgmmaFamily::smem_bytes(store, odd_c), 4u * 384u * 128u + 1024u);
  odd_c.c_dtype = DType::F32;  // 16 bytes of f32
  EXPECT_EQ(define_map(wfam().defines(store, odd_c))["WG_STORE"], "1");
  detail::GemmProblem ragged = pr;
  ragged.n = 1030;  // rows of 2060 bytes: the engine's last unit would spill past N
  EXPECT_EQ(define_map(wfam().defines(store, ragged))["WG_STORE"], "0");
  ragged.n = 1032;
  EXPECT_EQ(define_map(wfam().defines(store, ragged))["WG_STORE"], "1");
  Params store_split = store;
  store_split["SPLITK"] = 4;
  EXPECT_EQ(define_map(wfam().defines(store_split, f16(1024, 1024, 4096)))["WG_STORE"], "0");
  EXPECT_EQ(define_map(wfam().defines(store_split, f16(1024, 1024, 4096)))["WG_RAW"], "1");
  // tf32: f32 with the option only, f32 C; the kernel reads packed K-major
  // operands whatever the call's transposes.
  detail::GemmProblem t32 = test::dense_problem(DType::F32, 300, 520, 64);
  EXPECT_NE(wwhy({}, sm90, t32).find("tf32"), std::string::npos);
  t32.tf32 = true, t32.trans_a = true;
  EXPECT_EQ(wwhy({}, sm90, t32), "");
  defs = define_map(wfam().defines(d, t32));
  EXPECT_EQ(defs["WG_TF32"], "1");
  EXPECT_EQ(defs["TRANS_A"], "0");
  EXPECT_EQ(defs["TRANS_B"], "1");
  detail::GemmProblem t32h = t32;
  t32h.c_dtype = DType::F16;
  EXPECT_NE(wwhy({}, sm90, t32h).find("write f32"), std::string::npos);

  const detail::GemmCandidate& w = detail::gemm_candidate("wgmma");
  EXPECT_EQ(w.id(), 5);
  EXPECT_EQ(&w.family(), &wfam());
  EXPECT_EQ(detail::gemm_candidates()[1], &w);
  EXPECT_NE(w.applies(f16(1024, 1024, 1024), test::nvidia_caps(Backend::CUDA, 80)), "");
  detail::GemmProblem list = f16(1024, 1024, 1024), shared = list, misaligned = list;
  list.list = true;
  shared.batch = 4, shared.shared_b = true;
  misaligned.align_b = 4;
  for (const detail::GemmProblem* p : {&list, &shared, &misaligned}) EXPECT_NE(w.applies(*p, sm90), "");
  // tf32 packs A and B first: any alignment and stride 0 apply, lists do not;
  // its needs name the two passes and their scratch (K padded to 4).
  detail::GemmProblem tf = test::dense_problem(DType::F32, 100, 60, 30);
  tf.tf32 = true, tf.align_a = tf.align_b = 1, tf.shared_b = true, tf.batch = 2;
  if (detail::tensor_maps_available()) EXPECT_EQ(w.applies(tf, sm90), "");
  const detail::GemmCandidate::Needs tn = w.needs(wfam().defaults(sm90), sm90, tf);
  EXPECT_EQ(tn.scratch[0], 100u * 32u * 4u * 2u);
  EXPECT_EQ(tn.scratch[1], 60u * 32u * 4u * 2u);
  EXPECT_EQ(tn.passes.size(), 2u);
  tf.list = true;
  EXPECT_NE(w.applies(tf, sm90), "");

  // Fewer 128 x 256 tiles than multiprocessors: 128 x 128 ones, unless forced.
  Capabilities h100 = sm90;
  h100.compute_units = 132;
  EXPECT_EQ(w.fit({}, false, h100, f16(128, 4096, 4096))->at("BN"), 128);
  EXPECT_EQ(w.fit({}, false, h100, f16(4096, 128, 4096))->at("BN"), 128);
  EXPECT_EQ(w.fit({}, true, h100, f16(128, 4096, 4096))->at("BN"), 256);
  EXPECT_EQ(w.fit({}, false, h100, f16(4096, 4096, 4096))->at("BN"), 256);
  EXPECT_EQ(w.fit({{"BN", 128}}, false, h100, f16(4096, 4096, 4096))->at("BN"), 128);

  // The routine does not prefer it for thin tf32 products (m n / (m + n) <
  // 128): their packing passes outweigh the product. Forced, they fit.
  const Params rp = detail::families::gemm_routine().complete({{"INDIRECT_MIN", 0}}, h100);
  detail::GemmProblem thin32 = test::dense_problem(DType::F32, 128, 4096, 4096), wide32 = thin32;
  thin32.tf32 = wide32.tf32 = true;
  wide32.m = 256;
  EXPECT_FALSE(w.preferred(thin32, rp));
  EXPECT_TRUE(w.fit({}, false, h100, thin32));
  std::swap(thin32.m, thin32.n);
  EXPECT_FALSE(w.preferred(thin32, rp));
  EXPECT_TRUE(w.preferred(wide32, rp));
  thin32.m = thin32.n = 4096, thin32.k = 128;
  EXPECT_TRUE(w.preferred(thin32, rp));
  EXPECT_TRUE(w.preferred(f16(128, 4096, 4096), rp));  // f16 and bf16 pack nothing

  // Split K: none by default; SPLITK 0 counts it (128 x 4096 x 4096: 32 tiles of
  // 128 x 128, split 8 to reach 132 groups, K 4096 >= 8 x 256), not where the
  // tiles fill the device; ranges of whole stages (64 halves, 32 tf32 floats),
  // f32 partials in scratch slot 2 summed by gemm_copy_back.
  EXPECT_EQ(w.fit({}, false, h100, f16(128, 4096, 4096))->at("SPLITK"), 1);
  const Params autos = *w.fit({{"SPLITK", 0}}, false, h100, f16(128, 4096, 4096));
  EXPECT_EQ(autos.at("BN"), 128);
  EXPECT_EQ(autos.at("SPLITK"), 8);
  EXPECT_EQ(w.fit({{"SPLITK", 0}}, false, h100, f16(4096, 4096, 4096))->at("SPLITK"), 0);
  EXPECT_EQ(w.fit({{"SPLITK", 0}}, false, h100, f16(128, 4096, 512))->at("SPLITK"), 2);  // K per range >= 256
  EXPECT_EQ(w.fit({{"SPLITK", 0}}, true, h100, f16(128, 4096, 4096))->at("SPLITK"), 16);  // forced: BN 256 kept
  const auto ks = detail::GemmWgmmaFamily::split(autos, f16(128, 4096, 4100));
  EXPECT_EQ(ks.splits, 8);
  EXPECT_EQ(ks.kspan % 64, 0);
  EXPECT_GE(ks.kspan * 8, 4100);
  EXPECT_LT(ks.kspan * 7, 4100);
  EXPECT_EQ(detail::GemmWgmmaFamily::split({{"SPLITK", 4}}, f16(100, 100, 100)).splits, 2);  // two stages of K
  detail::GemmProblem tk = test::dense_problem(DType::F32, 128, 4096, 4096);
  tk.tf32 = true;
  EXPECT_EQ(detail::GemmWgmmaFamily::split(autos, tk).kspan % 32, 0);
  defs = define_map(wfam().defines(autos, f16(128, 4096, 4096)));
  EXPECT_EQ(defs["WG_RAW"], "1");
  EXPECT_EQ(defs.count("SPLITK") + defs.count("SK_FILL") + defs.count("SK_MINK"), 0u);
  const detail::GemmCandidate::Needs sn = w.needs(autos, h100, f16(128, 4096, 4096));
  EXPECT_EQ(sn.scratch[2], 8u * 128u * 4096u * 4u);
  ASSERT_EQ(sn.passes.size(), 1u);
  EXPECT_NE(sn.passes[0].find("gemm_copy_back"), std::string::npos);
  const detail::GemmCandidate::Needs stn = w.needs(autos, h100, tk);
  EXPECT_EQ(stn.passes.size(), 3u);  // the two tf32 packs and the sum
  EXPECT_EQ(w.needs(wfam().defaults(sm90), h100, f16(128, 4096, 4096)).scratch[2], 0u);
}

// ---- on a CUDA device of compute capability 8.0 or newer ----

namespace {

// Leading dimensions of A and B: the smallest multiple of `chunk` elements
// (16 bytes: 8 halves, 4 floats), plus `pad` (a multiple of it), for their
// stored shapes; batches start at multiples of it. C's stay as given (no
// condition).
void align_operands(GemmCase& c, std::int64_t pad = 0, std::int64_t chunk = 8) {
  const auto extra = [&](std::int64_t rows, std::int64_t cols, Transpose t) {
    const std::int64_t srows = t == Transpose::No ? rows : cols, scols = t == Transpose::No ? cols : rows;
    const std::int64_t inner = std::max<std::int64_t>(c.layout == Layout::RowMajor ? scols : srows, 1);
    return (inner + chunk - 1) / chunk * chunk - inner + pad;
  };
  c.lda_extra = extra(c.m, c.k, c.trans_a);
  c.ldb_extra = extra(c.k, c.n, c.trans_b);
  c.product_align = std::size_t(chunk);
}

// Small tiles of each candidate, so that small problems span several tiles
// along M, N and K (wgmma's rows are always 128).
const Params kWgmmaSmallTiles{{"BN", 128}, {"STAGES", 2}, {"SWIZZLE_GROUP", 1}};

// Parameterised by the candidate: "mma" (sm_80+) or "wgmma" (sm_90a).
class GemmCandidateMma : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (std::string why = test::why_not_cuda_sm80("the " + GetParam() + " candidate", GetParam() == "wgmma");
        !why.empty())
      GTEST_SKIP() << why;
  }
  static bool wgmma() { return GetParam() == "wgmma"; }
  static const Params* small() { return wgmma() ? &kWgmmaSmallTiles : &kSmallTiles; }

  // Runs c with the candidate forced (p: its parameters, else the stored
  // or default ones); f32 accumulation unless c says otherwise.
  static ::testing::AssertionResult check(GemmCase c, const Params* p = nullptr) {
    const GemmForce f = test::force(GetParam(), p);
    ::testing::AssertionResult r = ref::check_gemm(c, &f);
    if (!r && p) r << " with " << detail::params_to_json(*p);
    return r;
  }
  static GemmCase f16_case(std::int64_t m, std::int64_t n, std::int64_t k) {
    GemmCase c;
    c.dtype = DType::F16, c.accumulate = Accumulate::F32;
    c.m = m, c.n = n, c.k = k;
    return c;
  }
};

const std::tuple<int, int, int> kOddSizes[] = {{1, 1, 1}, {17, 17, 17}, {127, 127, 127}, {130, 200, 64},
                                               {257, 129, 300}};

}  // namespace

TEST_P(GemmCandidateMma, LayoutsTranspositionsAndSizes) {
  for (const Params* p : {static_cast<const Params*>(nullptr), small()})
    for (Layout l : {Layout::RowMajor, Layout::ColMajor})
      for (Transpose ta : {Transpose::No, Transpose::Yes})
        for (Transpose tb : {Transpose::No, Transpose::Yes})
          for (auto [m, n, k] : kOddSizes) {
            GemmCase c = f16_case(m, n, k);
            c.layout = l, c.trans_a = ta, c.trans_b = tb;
            c.ldc_extra = 3, c.c_off = 5;
            c.alpha = -0.5, c.beta = 2;
            align_operands(c);
            EXPECT_TRUE(check(c, p));
          }
}

// Padded leading dimensions and offsets of A and B (multiples of 8), any of C.
TEST_P(GemmCandidateMma, LeadingDimensionsAndOffsets) {
  for (Layout l : {Layout::RowMajor, Layout::ColMajor})
    for (auto [pad, ao, bo, ldc, co] : {std::tuple{8, 8, 16, 0, 0}, {16, 24, 8, 5, 3}, {64, 0, 40, 1, 17}}) {
      GemmCase c = f16_case(130, 77, 91);
      c.layout = l, c.trans_a = Transpose::Yes;
      align_operands(c, pad);
      c.a_off = std::size_t(ao), c.b_off = std::size_t(bo), c.ldc_extra = ldc, c.c_off = std::size_t(co);
      c.beta = -0.5;
      EXPECT_TRUE(check(c));
      EXPECT_TRUE(check(c, small()));
    }
}

// alpha and beta in {0, 1, -0.5, 2}: C holds NaN where beta = 0; alpha = 0
// runs the direct kernel's epilogue (no product), whatever is forced.
TEST_P(GemmCandidateMma, AlphaBetaGrid) {
  for (double alpha : {0.0, 1.0, -0.5, 2.0})
    for (double beta : {0.0, 1.0, -0.5, 2.0}) {
      GemmCase c = f16_case(133, 70, 200);
      c.layout = beta == 1 ? Layout::ColMajor : Layout::RowMajor;
      c.alpha = alpha, c.beta = beta;
      align_operands(c);
      EXPECT_TRUE(check(c, small()));
    }
}

TEST_P(GemmCandidateMma, BiasAndActivations) {
  int i = 0;
  for (Unary act : {Unary::Copy, Unary::Relu, Unary::Gelu})
    for (BiasMode bias : {BiasMode::PerRow, BiasMode::PerColumn}) {
      GemmCase c = f16_case(150, 97, 120);
      c.layout = i % 2 ? Layout::ColMajor : Layout::RowMajor;
      c.trans_b = Transpose::Yes;
      c.beta = i % 3 ? 0.0 : 0.5;
      c.bias_mode = bias, c.activation = act;
      align_operands(c);
      ++i;
      EXPECT_TRUE(check(c));
    }
}

// Strided (one with a shared A) and list batches, alpha and beta per listed
// product (alpha = 0 for one: its groups run no K step).
TEST_P(GemmCandidateMma, Batches) {
  for (GemmCase::Mode mode : {GemmCase::Mode::Strided, GemmCase::Mode::List})
    for (auto [m, n, k] : {std::tuple{64, 64, 64}, {45, 70, 50}})
      for (bool shared : {false, true}) {
        if (shared && mode == GemmCase::Mode::List) continue;  // shared A is a strided batch's
        // The copy engine reads strided batches with a nonzero stride only.
        if (wgmma() && (shared || mode == GemmCase::Mode::List)) continue;
        GemmCase c = f16_case(m, n, k);
        c.mode = mode, c.batch = 3, c.shared_a = shared;
        c.trans_a = Transpose::Yes;
        c.beta = 0.5, c.bias_mode = BiasMode::PerColumn;
        if (mode == GemmCase::Mode::List) c.alphas = {1.0, 0.0, -2.0}, c.betas = {0.0, 2.0, 0.5};
        align_operands(c);
        EXPECT_TRUE(check(c));
        EXPECT_TRUE(check(c, small()));
      }
}

// Accumulate::Default (f16 arithmetic elsewhere) runs the same kernel.
TEST_P(GemmCandidateMma, DefaultAccumulation) {
  for (Layout l : {Layout::RowMajor, Layout::ColMajor}) {
    GemmCase c = f16_case(257, 129, 300);
    c.accumulate = Accumulate::Default, c.layout = l, c.beta = 0.25;
    align_operands(c);
    EXPECT_TRUE(check(c));
  }
}

// Misaligned A or B: the forced candidate refuses; the routine takes another.
TEST_P(GemmCandidateMma, MisalignedOperandsAreRefused) {
  GemmCase c = f16_case(64, 64, 64);
  align_operands(c);
  c.a_off = 4;
  const GemmForce f = test::force(GetParam());
  EXPECT_FALSE(ref::check_gemm(c, &f));
  EXPECT_TRUE(ref::check_gemm(c));
}

// The routine's own choice (database or defaults): the tensor-core candidate
// for a large aligned f16 product (wgmma on 9.0, else mma), not where A or B
// is misaligned, not for f32.
TEST_P(GemmCandidateMma, RoutineChoosesMmaForLargeAlignedF16) {
  const Queue& q = test::queue();
  const Capabilities& caps = q.device().caps();
  const bool sm90 = caps.compute_capability_major == 9 && caps.compute_capability_minor == 0;
  if (GetParam() != (sm90 ? "wgmma" : "mma")) GTEST_SKIP() << "the routine chooses the other candidate here";
  detail::GemmProblem pr = f16(2048, 2048, 2048);
  EXPECT_EQ(detail::choose_gemm(q, pr, true, nullptr).candidate->name(), GetParam());
  pr.comp_half = true;
  EXPECT_EQ(detail::choose_gemm(q, pr, true, nullptr).candidate->name(), GetParam());
  pr.trans_a = true, pr.trans_b = true;
  EXPECT_EQ(detail::choose_gemm(q, pr, true, nullptr).candidate->name(), GetParam());
  detail::GemmCall odd;
  odd.dtype = DType::F16, odd.m = odd.n = odd.k = 2048;
  odd.a.ld = 2049, odd.b.ld = 2048, odd.c.ld = 2048;
  EXPECT_NE(detail::choose_gemm(q, detail::gemm_problem(odd), true, nullptr).candidate->name(), GetParam());
  odd.a.ld = 2048, odd.b.offset = 2;
  EXPECT_NE(detail::choose_gemm(q, detail::gemm_problem(odd), true, nullptr).candidate->name(), GetParam());
  EXPECT_NE(detail::choose_gemm(q, test::dense_problem(DType::F32, 2048, 2048, 2048), true, nullptr).candidate->name(),
            "mma");
  // The whole call, through the public API, on the routine's choice.
  GemmCase c = f16_case(1024, 512, 512);
  c.beta = 0.5;
  EXPECT_TRUE(ref::check_gemm(c));
}

// ---- bf16 and tf32 on the tensor cores ----

namespace {

// Small tiles for tf32 (4-byte elements: 16-deep stages fit 48 KiB).
const Params kSmallTf32{{"BM", 64}, {"BN", 64}, {"BK", 16}, {"WM", 32}, {"WN", 32}, {"STAGES", 4},
                        {"SWIZZLE_GROUP", 1}};

// A and B aligned to 16 bytes: multiples of 4 floats for tf32.
void align_f32(GemmCase& c) { align_operands(c, 0, 4); }

// An f32 case of the tf32 and three-product tests: case i of the sequence
// picks beta (-1 or 0: NaN in C), the bias and the activation.
GemmCase f32_case(GemmCompute compute, std::int64_t m, std::int64_t n, std::int64_t k, Layout l, Transpose ta,
                  Transpose tb, int i) {
  GemmCase c;
  c.compute = compute;
  c.m = m, c.n = n, c.k = k;
  c.layout = l, c.trans_a = ta, c.trans_b = tb;
  c.ldc_extra = 1, c.c_off = 3;
  c.alpha = 1.5, c.beta = i % 2 ? 0.0 : -1.0;
  c.bias_mode = i % 3 == 0 ? BiasMode::PerRow : BiasMode::None;
  c.activation = i % 5 == 2 ? Unary::Relu : Unary::Copy;
  align_f32(c);
  return c;
}

}  // namespace

// bf16 A and B with each C type, every layout and transposition, odd sizes,
// the epilogue; f16 A and B with bf16 and f32 C.
TEST_P(GemmCandidateMma, Bf16AndMixedOutputTypes) {
  int i = 0;
  for (auto [t, tc] : {std::pair{DType::BF16, DType::BF16}, {DType::BF16, DType::F32}, {DType::BF16, DType::F16},
                       {DType::F16, DType::BF16}, {DType::F16, DType::F32}})
    for (Layout l : {Layout::RowMajor, Layout::ColMajor})
      for (Transpose ta : {Transpose::No, Transpose::Yes})
        for (Transpose tb : {Transpose::No, Transpose::Yes})
          for (auto [m, n, k] : {std::tuple{17, 17, 17}, {130, 200, 64}, {257, 129, 300}}) {
            GemmCase c = f16_case(m, n, k);
            c.dtype = t, c.c_dtype = tc;
            c.layout = l, c.trans_a = ta, c.trans_b = tb;
            c.ldc_extra = 3, c.c_off = 5;
            c.alpha = -0.5, c.beta = i % 2 ? 0.0 : 2.0;
            c.bias_mode = i % 3 == 0 ? BiasMode::PerColumn : BiasMode::None;
            c.activation = i % 4 == 1 ? Unary::Gelu : Unary::Copy;
            ++i;
            align_operands(c);
            EXPECT_TRUE(check(c, i % 2 ? small() : nullptr));
          }
}

// Split K forced (ranges of K summed by gemm_copy_back): sizes whose K is not
// a multiple of a range, both transposes and layouts, alpha and beta with the
// bias and an activation (applied once, after the sum), strided batches, bf16
// with f32 C, and (wgmma) tf32 through its packs.
TEST_P(GemmCandidateMma, SplitK) {
  Params split = *small();
  split["SPLITK"] = 4, split["FUSE"] = 0;
  if (wgmma()) split.erase("FUSE");
  int i = 0;
  for (auto [m, n, k] : {std::tuple{130, 200, 300}, {257, 129, 700}, {64, 96, 1000}})
    for (Transpose ta : {Transpose::No, Transpose::Yes})
      for (Transpose tb : {Transpose::No, Transpose::Yes}) {
        GemmCase c = f16_case(m, n, k);
        c.layout = i % 2 ? Layout::ColMajor : Layout::RowMajor;
        c.trans_a = ta, c.trans_b = tb;
        c.alpha = -0.5, c.beta = i % 3 ? 0.0 : 2.0;
        c.bias_mode = i % 4 == 1 ? BiasMode::PerColumn : BiasMode::None;
        c.activation = i % 4 == 1 ? Unary::Relu : Unary::Copy;
        c.ldc_extra = 3, c.c_off = 5;
        if (i % 3 == 2) c.dtype = DType::BF16, c.c_dtype = DType::F32;
        if (i % 5 == 4) c.mode = GemmCase::Mode::Strided, c.batch = 3;
        ++i;
        align_operands(c);
        EXPECT_TRUE(check(c, &split));
      }
  if (!wgmma()) return;
  for (int j = 0; j < 2; ++j) {
    GemmCase t = f32_case(GemmCompute::FastTF32, 97, 130, 333, Layout::RowMajor, Transpose::No,
                          j ? Transpose::Yes : Transpose::No, j);
    align_f32(t);
    EXPECT_TRUE(check(t, &split));
  }
}

TEST_P(GemmCandidateMma, Bf16Batches) {
  for (GemmCase::Mode mode : {GemmCase::Mode::Strided, GemmCase::Mode::List}) {
    if (wgmma() && mode == GemmCase::Mode::List) continue;  // strided batches only
    GemmCase c = f16_case(45, 70, 50);
    c.dtype = DType::BF16, c.c_dtype = DType::F32;
    c.mode = mode, c.batch = 3, c.trans_b = Transpose::Yes, c.beta = 0.5;
    if (mode == GemmCase::Mode::List) c.alphas = {1.0, 0.0, -2.0}, c.betas = {0.0, 2.0, 0.5};
    align_operands(c);
    EXPECT_TRUE(check(c));
    EXPECT_TRUE(check(c, small()));
  }
}

// f32 with GemmCompute::FastTF32: inputs rounded to tf32 (the reference's
// bound adds 2 * 2^-11 of the product's scale), f32 accumulation.
TEST_P(GemmCandidateMma, Tf32) {
  int i = 0;
  for (Layout l : {Layout::RowMajor, Layout::ColMajor})
    for (Transpose ta : {Transpose::No, Transpose::Yes})
      for (Transpose tb : {Transpose::No, Transpose::Yes})
        for (auto [m, n, k] : {std::tuple{1, 1, 1}, {17, 33, 9}, {130, 200, 64}, {257, 129, 300}}) {
          const GemmCase c = f32_case(GemmCompute::FastTF32, m, n, k, l, ta, tb, i++);
          EXPECT_TRUE(check(c, i % 2 ? (wgmma() ? small() : &kSmallTf32) : nullptr));
        }
  GemmCase s;
  s.compute = GemmCompute::FastTF32;
  s.m = 64, s.n = 48, s.k = 40, s.mode = GemmCase::Mode::Strided, s.batch = 3, s.shared_a = true;
  align_f32(s);
  EXPECT_TRUE(check(s));
}

// The tensor cores really round to tf32: with A = 1 + 2^-12 (exact in f32,
// 1 in tf32) and B = 1, the product is 1 per term with FastTF32, exact f32
// without it.
TEST_P(GemmCandidateMma, Tf32RoundsTheInputs) {
  for (float v : test::tf32_probe(test::force(GetParam()), GemmCompute::FastTF32))
    ASSERT_EQ(v, float(test::kProbeK));
  // Without the option the routine runs f32 elsewhere: exact.
  for (float v : test::tf32_probe(test::force(""), GemmCompute::Default))
    ASSERT_EQ(v, float(test::kProbeK) * test::kProbeA);
}

// The routine's choice: bf16 and opted-in f32 go to the tensor cores, plain
// f32 does not.
TEST_P(GemmCandidateMma, RoutineChoosesMmaForBf16AndTf32) {
  if (wgmma()) GTEST_SKIP() << "tf32 runs on the mma candidate";
  const Queue& q = test::queue();
  const Capabilities& caps = q.device().caps();
  const bool sm90 = caps.compute_capability_major == 9 && caps.compute_capability_minor == 0;
  EXPECT_EQ(detail::choose_gemm(q, test::dense_problem(DType::BF16, 2048, 2048, 2048), true, nullptr).candidate->name(),
            sm90 ? "wgmma" : "mma");
  detail::GemmProblem f32 = test::dense_problem(DType::F32, 2048, 2048, 2048);
  EXPECT_NE(detail::choose_gemm(q, f32, true, nullptr).candidate->name(), "mma");
  f32.tf32 = true;
  EXPECT_EQ(detail::choose_gemm(q, f32, true, nullptr).candidate->name(), sm90 ? "wgmma" : "mma");
  GemmCase c = f16_case(1024, 512, 512);
  c.dtype = DType::BF16, c.c_dtype = DType::F32, c.beta = 0.5;
  EXPECT_TRUE(ref::check_gemm(c));
  GemmCase t;
  t.compute = GemmCompute::FastTF32;
  t.m = 512, t.n = 1024, t.k = 768;
  EXPECT_TRUE(ref::check_gemm(t));
}

// f64 on the FP64 tensor cores (sm_90, the mma candidate): every layout and
// transpose pair, odd sizes, padded leading dimensions, beta 0 and not, a
// bias, an activation, strided and listed batches, small tiles and the
// fallback's 128 x 128 tiles (dynamic shared memory); the routine takes the
// candidate for a large aligned f64 product.
TEST_P(GemmCandidateMma, F64) {
  if (wgmma()) GTEST_SKIP() << "f64 runs on the mma candidate";
  if (std::string why = test::why_not_cuda_sm80("f64 on the mma candidate", true); !why.empty()) GTEST_SKIP() << why;
  const Params small64{{"BM", 64}, {"BN", 64}, {"BK", 16}, {"WM", 32}, {"WN", 32}, {"STAGES", 2},
                       {"SWIZZLE_GROUP", 1}};
  int i = 0;
  for (Layout l : {Layout::RowMajor, Layout::ColMajor})
    for (Transpose ta : {Transpose::No, Transpose::Yes})
      for (Transpose tb : {Transpose::No, Transpose::Yes})
        for (auto [m, n, k] : {std::tuple{1, 1, 1}, {17, 33, 9}, {130, 200, 64}, {257, 129, 300}}) {
          GemmCase c;
          c.dtype = DType::F64;
          c.m = m, c.n = n, c.k = k;
          c.layout = l, c.trans_a = ta, c.trans_b = tb;
          c.ldc_extra = 1, c.c_off = 3;
          c.alpha = -1.25, c.beta = i % 2 ? 0.0 : 0.5;
          c.bias_mode = i % 3 == 0 ? BiasMode::PerColumn : BiasMode::None;
          c.activation = i % 5 == 2 ? Unary::Gelu : Unary::Copy;
          ++i;
          align_operands(c, i % 4 == 1 ? 2 : 0, 2);
          EXPECT_TRUE(check(c, i % 2 ? &small64 : nullptr));
        }
  for (GemmCase::Mode mode : {GemmCase::Mode::Strided, GemmCase::Mode::List}) {
    GemmCase s;
    s.dtype = DType::F64;
    s.m = 70, s.n = 48, s.k = 40, s.mode = mode, s.batch = 3;
    align_operands(s, 0, 2);
    EXPECT_TRUE(check(s));
  }
  GemmCase odd;  // an odd leading dimension of A: refused
  odd.dtype = DType::F64;
  odd.m = odd.n = odd.k = 33;
  const GemmForce f = test::force("mma");
  EXPECT_FALSE(ref::check_gemm(odd, &f));
  EXPECT_EQ(detail::choose_gemm(test::queue(), test::dense_problem(DType::F64, 2048, 2048, 2048), true, nullptr)
                .candidate->name(),
            "mma");
  GemmCase big;
  big.dtype = DType::F64;
  big.m = 1024, big.n = 512, big.k = 768, big.beta = 0.5;
  EXPECT_TRUE(ref::check_gemm(big));
}

// FULL_TILES: tiles wholly inside A, B and K copy without edge tests, the
// others with them; both forms give the tested result. Products with inside
// tiles, edge tiles along M and N and a K tail (small tiles), every
// transpose pair, f16, tf32 (three products a term) and f64, with 1 and 0.
TEST_P(GemmCandidateMma, FullTilesAndEdgeTiles) {
  if (wgmma()) GTEST_SKIP() << "FULL_TILES is the mma candidate's";
  const bool f64 = test::why_not_cuda_sm80("f64", true).empty();
  for (DType t : {DType::F16, DType::F32, DType::F64}) {
    if (t == DType::F64 && !f64) continue;
    const std::int64_t chunk = t == DType::F16 ? 8 : t == DType::F32 ? 4 : 2;
    for (std::int64_t full : {1, 0}) {
      Params p{{"BM", 64}, {"BN", 64}, {"BK", t == DType::F16 ? 32 : 16}, {"WM", 32}, {"WN", 32}, {"STAGES", 3},
               {"SWIZZLE_GROUP", 1}, {"FULL_TILES", full}};
      for (Transpose ta : {Transpose::No, Transpose::Yes})
        for (Transpose tb : {Transpose::No, Transpose::Yes})
          for (auto [m, n, k] : {std::tuple{192, 128, 96}, {200, 136, 300}, {64, 64, 32}}) {
            GemmCase c;
            c.dtype = t;
            if (t == DType::F16) c.accumulate = Accumulate::F32;
            c.m = m, c.n = n, c.k = k;
            c.trans_a = ta, c.trans_b = tb;
            c.alpha = 0.75, c.beta = 0.5;
            align_operands(c, 0, chunk);
            EXPECT_TRUE(check(c, &p)) << dtype_name(t) << " FULL_TILES " << full;
          }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Candidates, GemmCandidateMma, ::testing::Values("mma", "wgmma"),
                         [](const auto& info) { return info.param; });

// wgmma refuses what the copy engine cannot read; the routine runs them on
// another candidate.
TEST(GemmCandidateWgmma, ListsAndSharedOperandsGoElsewhere) {
  if (std::string why = test::why_not_cuda_sm80("the wgmma candidate", true); !why.empty()) GTEST_SKIP() << why;
  for (GemmCase::Mode mode : {GemmCase::Mode::Strided, GemmCase::Mode::List}) {
    GemmCase c;
    c.dtype = DType::F16, c.accumulate = Accumulate::F32;
    c.m = 200, c.n = 136, c.k = 72, c.mode = mode, c.batch = 3;
    c.shared_a = mode == GemmCase::Mode::Strided;
    c.product_align = 8;
    const GemmForce f = test::force("wgmma");
    EXPECT_FALSE(ref::check_gemm(c, &f));
    EXPECT_TRUE(ref::check_gemm(c));
  }
}

// The walks' last two cases under p: split K (ranges of K as products of
// the walk, raw partials) and tf32 through its packs (case i's epilogue),
// whose C is 16-byte aligned (ld 1704, offset 4) where c16 asks, else odd.
namespace {
void split_and_tf32_cases(const Params& p, int i, bool c16) {
  Params split = p;
  split["SPLITK"] = 4;
  const GemmForce fs = test::force("wgmma", &split);
  GemmCase c;
  c.dtype = DType::F16, c.accumulate = Accumulate::F32;
  c.m = 1500, c.n = 1100, c.k = 1000, c.beta = 0.5, c.trans_b = Transpose::Yes;
  align_operands(c);
  EXPECT_TRUE(ref::check_gemm(c, &fs)) << detail::params_to_json(split);
  GemmCase t = f32_case(GemmCompute::FastTF32, 1300, 1700, 150, Layout::RowMajor, Transpose::No, Transpose::Yes, i);
  if (c16) t.ldc_extra = 4, t.c_off = 4;
  const GemmForce f = test::force("wgmma", &p);
  EXPECT_TRUE(ref::check_gemm(t, &f)) << detail::params_to_json(p);
}
}  // namespace

// Persistent groups (PERSIST 1, both tile widths) and consumers on alternate
// tiles (PERSIST 2): products of more tiles than the device has
// multiprocessors, so that groups walk several; odd sizes, transposes and
// layouts, strided batches, alpha = 0, beta with NaN-free C, the bias and an
// activation, split K (raw ranges), bf16, and tf32 through its packs.
TEST(GemmCandidateWgmma, PersistentWalks) {
  if (std::string why = test::why_not_cuda_sm80("the wgmma candidate", true); !why.empty()) GTEST_SKIP() << why;
  const Params persist1{{"BN", 256}, {"STAGES", 3}, {"SWIZZLE_GROUP", 8}, {"PERSIST", 1}};
  const Params persist1n{{"BN", 128}, {"STAGES", 2}, {"SWIZZLE_GROUP", 1}, {"PERSIST", 1}};
  const Params pingpong{{"BN", 128}, {"STAGES", 4}, {"SWIZZLE_GROUP", 4}, {"PERSIST", 2}};
  int i = 0;
  for (const Params* p : {&persist1, &persist1n, &pingpong}) {
    const GemmForce f = test::force("wgmma", p);
    for (auto [m, n, k, batch] : {std::tuple{2100, 3000, 200, 1}, {1030, 1500, 70, 3}, {300, 129, 1000, 1}}) {
      GemmCase c;
      c.dtype = i % 4 == 3 ? DType::BF16 : DType::F16, c.accumulate = Accumulate::F32;
      c.m = m, c.n = n, c.k = k;
      c.layout = i % 2 ? Layout::ColMajor : Layout::RowMajor;
      c.trans_a = i % 3 == 1 ? Transpose::Yes : Transpose::No;
      c.trans_b = i % 5 < 2 ? Transpose::Yes : Transpose::No;
      if (batch > 1) c.mode = GemmCase::Mode::Strided, c.batch = batch;
      c.alpha = i % 3 == 2 ? 0.0 : -0.5, c.beta = i % 3 ? 0.0 : 2.0;  // alpha 0: every mode's third case
      c.bias_mode = i % 4 == 1 ? BiasMode::PerColumn : BiasMode::None;
      c.activation = i % 4 == 1 ? Unary::Relu : Unary::Copy;
      c.ldc_extra = 3, c.c_off = 5;
      ++i;
      align_operands(c);
      ::testing::AssertionResult r = ref::check_gemm(c, &f);
      EXPECT_TRUE(r) << detail::params_to_json(*p);
    }
    split_and_tf32_cases(*p, i, false);
  }
}

// C through the copy engine (STORE 1) in every PERSIST mode and both tile
// widths: more tiles than multiprocessors, odd sizes (the copy engine clips
// the chunks at C's edges; the guard around C must stay untouched), both
// layouts and transposes, strided batches, alpha 0, beta, the bias and an
// activation, f16, bf16 and f32 C, tf32; a C whose offset is not 16-byte
// aligned, or whose N ends inside a 16-byte unit (1500 f16, row-major; the
// column-major 1032 x 1500 is N 1032 and goes through the engine), falls
// back to the consumers' stores, and so does split K.
TEST(GemmCandidateWgmma, StoresThroughTheCopyEngine) {
  if (std::string why = test::why_not_cuda_sm80("the wgmma candidate", true); !why.empty()) GTEST_SKIP() << why;
  const Params plain{{"BN", 256}, {"STAGES", 4}, {"SWIZZLE_GROUP", 8}, {"STORE", 1}};
  const Params persist1{{"BN", 256}, {"STAGES", 3}, {"SWIZZLE_GROUP", 8}, {"PERSIST", 1}, {"STORE", 1}};
  const Params persist1n{{"BN", 128}, {"STAGES", 2}, {"SWIZZLE_GROUP", 1}, {"PERSIST", 1}, {"STORE", 1}};
  const Params pingpong{{"BN", 128}, {"STAGES", 4}, {"SWIZZLE_GROUP", 4}, {"PERSIST", 2}, {"STORE", 1}};
  int i = 0;
  for (const Params* p : {&plain, &persist1, &persist1n, &pingpong}) {
    const GemmForce f = test::force("wgmma", p);
    for (auto [m, n, k, batch] :
         {std::tuple{2100, 3000, 200, 1}, {1032, 1500, 70, 3}, {300, 129, 1000, 1}, {64, 40, 16, 2}}) {
      GemmCase c;
      c.dtype = i % 4 == 3 ? DType::BF16 : DType::F16, c.accumulate = Accumulate::F32;
      if (i % 5 == 4) c.c_dtype = DType::F32;
      c.m = m, c.n = n, c.k = k;
      c.layout = i % 2 ? Layout::ColMajor : Layout::RowMajor;
      c.trans_a = i % 3 == 1 ? Transpose::Yes : Transpose::No;
      c.trans_b = i % 5 < 2 ? Transpose::Yes : Transpose::No;
      if (batch > 1) c.mode = GemmCase::Mode::Strided, c.batch = batch;
      c.alpha = i % 4 == 2 ? 0.0 : -0.5, c.beta = i % 3 ? 0.0 : 2.0;
      c.bias_mode = i % 4 == 1 ? BiasMode::PerColumn : i % 4 == 3 ? BiasMode::PerRow : BiasMode::None;
      c.activation = i % 4 == 1 ? Unary::Relu : Unary::Copy;
      // C's leading dimension a multiple of 16 bytes, its offset too, but
      // in every fifth case (the consumers' stores then).
      const std::int64_t inner = c.layout == Layout::RowMajor ? n : m;
      c.ldc_extra = (inner + 7) / 8 * 8 - inner + 8;
      c.c_off = i % 5 == 2 ? 5 : 8;
      ++i;
      align_operands(c);
      EXPECT_TRUE(ref::check_gemm(c, &f)) << detail::params_to_json(*p) << " case " << i;
    }
    split_and_tf32_cases(*p, i, true);
  }
}

// f32 without the opt-in, on mma: three tf32 products a term (MMA_X3), held
// to f32's own bound, in every layout and transposition, thin tiles and
// small square ones, split K included; the probe comes out exact, as f32's
// FMAs give it. The routine never picks it unless its entry names KERNEL 3.
TEST_P(GemmCandidateMma, F32AsThreeTf32Products) {
  if (wgmma()) GTEST_SKIP() << "three tf32 products are the mma candidate's";
  const Params thin{{"BM", 16}, {"WM", 16}, {"BN", 64}, {"WN", 32}, {"BK", 16}, {"STAGES", 4}, {"SWIZZLE_GROUP", 1}};
  Params split = thin, split_pass = thin;
  split["SPLITK"] = 4, split["FUSE"] = 1;  // the ranges added in the kernel
  split_pass["SPLITK"] = 3;                // by gemm_copy_back (FUSE 0, the default)
  int i = 0;
  for (const Params* p : {&thin, static_cast<const Params*>(&split), static_cast<const Params*>(&split_pass),
                          &kSmallTf32})
    for (Layout l : {Layout::RowMajor, Layout::ColMajor})
      for (Transpose ta : {Transpose::No, Transpose::Yes})
        for (Transpose tb : {Transpose::No, Transpose::Yes})
          for (auto [m, n, k] : {std::tuple{1, 1, 32}, {8, 300, 520}, {16, 130, 64}, {130, 200, 96}, {300, 12, 200}}) {
            EXPECT_TRUE(check(f32_case(GemmCompute::Default, m, n, k, l, ta, tb, i++), p));
          }
  for (float v : test::tf32_probe(test::force("mma"), GemmCompute::Default))
    ASSERT_EQ(v, float(test::kProbeK) * test::kProbeA);
  // An infinity stays infinite (its split is 0 + inf: no inf - inf, no inf
  // times the other's lo of 0), and FLT_MAX (whose tf32 rounding would carry
  // to infinity; the split truncates) stays finite and whole.
  {
    const Queue& q = test::queue();
    constexpr std::int64_t m = 16, n = 64, k = 64;
    std::vector<float> ha(std::size_t(m * k), 1.0f), hb(std::size_t(k * n), 0.5f);
    ha[0] = std::numeric_limits<float>::infinity();
    for (std::int64_t j = 0; j < k; ++j) ha[std::size_t(k + j)] = j ? 0.0f : std::numeric_limits<float>::max();
    auto a = q.context().alloc<float>(ha.size()), b = q.context().alloc<float>(hb.size());
    auto c = q.context().alloc<float>(std::size_t(m * n));
    q.write(a, std::span<const float>(ha)).wait();
    q.write(b, std::span<const float>(hb)).wait();
    {
      detail::GemmForceScope scope(test::force("mma", &thin));
      gemm(q, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0, a, k, b, n, 0.0, c, n).wait();
    }
    std::vector<float> hc(std::size_t(m * n));
    q.read(c, std::span<float>(hc)).wait();
    for (std::int64_t j = 0; j < n; ++j) {
      EXPECT_EQ(hc[std::size_t(j)], std::numeric_limits<float>::infinity()) << "row 0, column " << j;
      EXPECT_NEAR(hc[std::size_t(n + j)] / (0.5 * std::numeric_limits<float>::max()), 1.0, 1e-6) << "column " << j;
      EXPECT_EQ(hc[std::size_t(2 * n + j)], 32.0f) << "row 2, column " << j;
    }
  }
  // Short K stays with f32's FMAs; the default order never takes it.
  const detail::GemmProblem shallow = test::dense_problem(DType::F32, 16, 4096, 16);
  EXPECT_NE(detail::mma_candidate().applies(shallow, test::device().caps()), "");
  EXPECT_EQ(detail::mma_candidate().applies(test::dense_problem(DType::F32, 16, 4096, 4096), test::device().caps()), "");
  EXPECT_FALSE(detail::mma_candidate().preferred(test::dense_problem(DType::F32, 4096, 4096, 4096),
                                                 {{"INDIRECT_MIN", 0}}));
}
