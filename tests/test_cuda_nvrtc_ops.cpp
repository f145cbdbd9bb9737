// The kernels the operators build, compiled by NVRTC for sm_90 without a
// driver: every element-wise expression body (unary, binary with tensor or
// scalar operands, ternary, casts) in every compute type, f16 storage
// included; the data movement of every operand signature (as fitted, strided,
// and every pack width with the grid-stride loop off and on for a set of
// signatures); and the define combinations of reduce (single and split
// passes), norm_rows (each operator, strategy and optional operand) and
// softmax_cols. The text and defines come from the hosts' own code
// (detail::*_call, elementwise_source, reduce_passes, norm_problem,
// softmax_cols_problem and each family's fit and defines) for an H100;
// and the convolution kernels (conv_direct, conv_depthwise, conv_im2col) likewise.
#include <gtest/gtest.h>

#ifdef OPTUNE_WITH_CUDA

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <set>

#include "kernels/blas/blas3.hpp"
#include "kernels/blas/blas_extra.hpp"
#include "kernels/blas/blas_tri.hpp"
#include "kernels/families.hpp"
#include "ops/elementwise_ops.hpp"
#include "ops/elementwise_plan.hpp"
#include "ops/reduce_ops.hpp"
#include "runtime/embedded.hpp"
#include "support/nvrtc_support.hpp"

using namespace optune;
using namespace optune::detail;

namespace {

const DType kTypes[] = {DType::F32, DType::F16, DType::F64, DType::I32, DType::I8, DType::U8, DType::BF16};

bool is_integer(DType t) { return t == DType::I32 || t == DType::I8 || t == DType::U8; }

std::string get(const Defines& d, const std::string& key) {
  for (const auto& [k, v] : d)
    if (k == key) return v;
  return "";
}

// Compiles each distinct text and define set once, for sm_90 (a cubin where
// the text reaches inline PTX, else PTX: test::check_arch); a failure is a
// test failure naming what was being compiled.
class Compiler {
 public:
  explicit Compiler(Capabilities caps) : caps_(std::move(caps)) {}
  // key: what makes two compiles the same (default: the text and defines).
  void operator()(const std::string& what, const std::string& label, const std::string& text, Defines d,
                  std::string key = "") {
    std::sort(d.begin(), d.end());
    if (key.empty()) key = std::to_string(std::hash<std::string>{}(text));
    if (!seen_.insert(key + test::describe(d)).second) return;
    ++compiled_;
    try {
      nvrtc_compile_check_text(label, text, d, caps_, test::check_arch(text));
    } catch (const Error& e) {
      ADD_FAILURE() << what << test::describe(d) << ":\n" << e.what();
    }
  }
  template <class Family>
  void operator()(const std::string& what, const Family& fam, const Params& p,
                  const typename Family::ProblemType& pr) {
    const KernelSource src = fam.program(p, pr);
    (*this)(what, src.label, src.text, src.defines);
  }
  int compiled() const { return compiled_; }
  const Capabilities& caps() const { return caps_; }

 private:
  Capabilities caps_;
  std::set<std::string> seen_;
  int compiled_ = 0;
};

// ---- element-wise ----

// Every call the element-wise operators make, built by the operators' own
// builders on operands that carry only a type and a shape (nothing runs).
struct Calls {
  std::deque<Operand> operands;  // stable addresses for the calls' pointers
  std::vector<std::pair<std::string, ElementwiseCall>> list;

  const Operand& op(DType t) {
    Operand o;
    o.dtype = t;
    o.count = 4096;
    o.shape = {4096};
    operands.push_back(o);
    return operands.back();
  }
  void add(const std::string& name, const std::function<ElementwiseCall()>& make) {
    try {
      list.emplace_back(name, make());
    } catch (const Error& e) {
      if (e.status() != Status::InvalidType) throw;  // the operator has no form for this type
    }
  }
};

Calls every_call() {
  Calls c;
  for (DType t : kTypes) {
    const std::string ts(dtype_name(t));
    for (int o = 0; o <= int(Unary::Clamp); ++o)
      c.add(std::string(unary_name(Unary(o))) + " " + ts,
            [&] { return unary_call(Unary(o), c.op(t), c.op(t), {-1, 1}); });
    for (int o = 0; o <= int(Binary::Ge); ++o) {
      const DType yt = Binary(o) >= Binary::Eq ? DType::U8 : t;
      const std::string name = std::string(binary_name(Binary(o))) + " " + ts;
      c.add(name, [&] { return binary_call(Binary(o), c.op(t), c.op(t), c.op(yt)); });
      c.add(name + " scalar b", [&] { return binary_scalar_call(Binary(o), c.op(t), 2, false, c.op(yt)); });
      c.add(name + " scalar a", [&] { return binary_scalar_call(Binary(o), c.op(t), 2, true, c.op(yt)); });
    }
    for (int o = 0; o <= int(Ternary::Clamp); ++o) {
      const std::string name = std::string(ternary_name(Ternary(o))) + " " + ts;
      c.add(name, [&] { return ternary_call(Ternary(o), c.op(t), c.op(t), c.op(t), c.op(t), {}); });
      if (Ternary(o) == Ternary::Where && !is_integer(t))
        c.add(name + " u8 mask", [&] { return ternary_call(Ternary::Where, c.op(DType::U8), c.op(t), c.op(t), c.op(t), {}); });
    }
    for (DType to : kTypes)
      c.add("cast " + ts + " to " + std::string(dtype_name(to)), [&] { return cast_call(c.op(t), c.op(to)); });
  }
  return c;
}

// A plan of 4096 elements: dense, or strided over 3 dimensions.
ElementwisePlan plan_of(const ElementwiseCall& call, bool contiguous) {
  ElementwisePlan p;
  p.n = 4096;
  const std::size_t ops = call.inputs.size() + call.outputs.size();
  p.contiguous = contiguous;
  p.shape = contiguous ? std::vector<std::int64_t>{4096} : std::vector<std::int64_t>{16, 16, 16};
  p.strides.assign(ops, contiguous ? std::vector<std::int64_t>{1} : std::vector<std::int64_t>{256, 1, 16});
  return p;
}

// Each expression body inside the kernel file it is pasted into, with the
// compute type and approximations of its calls: one kernel holding every
// body of a context, each under #line naming it, so that a body that NVRTC
// rejects is named in the log (one compile per context instead of hundreds).
void compile_bodies(Compiler& compile, const std::map<Defines, std::vector<std::pair<std::string, std::string>>>& by_context) {
  for (const auto& [context, bodies] : by_context) {
    std::string text = "#define EW_BODY o0 = i0;\n#line 1 \"elementwise/elementwise.cl\"\n" +
                       std::string(kernel_source("elementwise/elementwise.cl")) +
                       "\n__kernel void bodies(__global real* out, const EwScalars sc) {\n"
                       "  const real i0 = out[0], i1 = out[1], i2 = out[2], i3 = out[3];\n";
    for (const auto& [label, body] : bodies)
      text += "#line 1 \"" + label + "\"\n  { real o0 = (real)0, o1 = (real)0; (void)i1; (void)i2; (void)i3; " + body +
              "\n    out[4] += o0 + o1; }\n";
    text += "}\n";
    compile(std::to_string(bodies.size()) + " bodies", "elementwise bodies", text, context);
  }
}

// An operand signature: the operand types and kinds, without what only sizes
// the scalars' struct or picks approximations.
std::string movement_signature(const Defines& d) {
  Defines sig;
  for (const auto& kv : d)
    if (kv.first.rfind("IN", 0) == 0 || kv.first.rfind("OUT", 0) == 0 || kv.first == "N_IN" || kv.first == "N_OUT" ||
        kv.first == "CT")
      sig.push_back(kv);
  std::sort(sig.begin(), sig.end());
  return test::describe(sig);
}

}  // namespace

TEST(CudaNvrtcOps, ElementwiseBodiesAndDataMovement) {
  test::require_nvrtc();
  Compiler compile(test::sm90_caps());
  const Capabilities& caps = compile.caps();
  const auto& fam = families::elementwise();
  const Calls calls = every_call();
  std::map<Defines, std::vector<std::pair<std::string, std::string>>> bodies;
  std::set<std::string> strided;
  for (const auto& [name, call] : calls.list) {
    const ElementwisePlan plan = plan_of(call, true);
    const ElementwiseProblem pr = elementwise_problem(call, plan);
    // As the operator runs it (the family's defaults fitted to the call), once
    // per define set: the body is compiled below with the others.
    const KernelSource src = fam.program(fam.fit(fam.defaults(caps), caps, pr), pr);
    compile(name, src.label, src.text, src.defines, "movement");
    const Defines context{{"CT", get(src.defines, "CT")}, {"EW_DOUBLE", get(src.defines, "EW_DOUBLE")},
                          {"EW_APPROX", get(src.defines, "EW_APPROX")}, {"N_SCALARS", "2"}};
    bodies[context].emplace_back(name, call.body);
    // The copy of each type and casts between types of different widths and
    // kinds also run strided and at every pack width, with the grid-stride
    // loop off and on; the other operators strided, once per operand signature.
    static const std::set<std::string> sweep{"copy f32", "copy f16", "copy f64", "copy i32", "copy i8", "copy u8",
                                             "cast f32 to f16", "cast f16 to u8", "cast f64 to f16", "cast i32 to f32"};
    const bool is_cast = name.rfind("cast ", 0) == 0;
    if ((!is_cast || sweep.count(name)) && strided.insert(movement_signature(src.defines)).second) {
      const ElementwisePlan s = plan_of(call, false);
      const ElementwiseProblem spr = elementwise_problem(call, s);
      const KernelSource v = fam.program(fam.fit(fam.defaults(caps), caps, spr), spr);
      compile(name + " strided", v.label, v.text, v.defines, "movement");
    }
    if (!sweep.count(name)) continue;
    for (std::int64_t vw : {1, 2, 4, 8})
      for (std::int64_t gs : {0, 1}) {
        const Params p{{"VW", vw}, {"WGS", 256}, {"GRID_STRIDE", gs}, {"WAVES", 4}};
        if (!fam.check(p, caps, pr).empty()) continue;
        const KernelSource v = fam.program(p, pr);
        compile(name, v.label, v.text, v.defines, "movement");
      }
  }
  compile_bodies(compile, bodies);
  std::size_t body_count = 0;
  for (const auto& [context, list] : bodies) body_count += list.size();
  std::printf("%zu calls, %zu bodies in %zu contexts, %d NVRTC compiles\n", calls.list.size(), body_count,
              bodies.size(), compile.compiled());
  EXPECT_GT(calls.list.size(), 300u);
}

TEST(CudaNvrtcOps, ReduceNormAndSoftmaxDefines) {
  test::require_nvrtc();
  int compiled = 0;
  for (bool minimal : {false, true}) {
    Compiler compile(test::sm90_caps(minimal));
    const Capabilities& caps = compile.caps();
    const std::string mode = minimal ? " (no fp16, no sub-groups)" : "";
    const std::vector<DType> floats = minimal ? std::vector<DType>{DType::F32, DType::F16}
                                              : std::vector<DType>{DType::F32, DType::F16, DType::F64, DType::BF16};
    // reduce: every operator and input type over rows and columns; rows long
    // enough to split over groups (both passes) in f32 and f16; in f32 also
    // split columns, and rows and columns that allow no pack. Without fp16
    // and sub-groups: the f16 rows (sub-group reductions and half arithmetic
    // are off).
    struct Layout {
      std::size_t outer, reduced, inner;
    };
    const Layout rows{64, 4096, 1}, columns{2, 100, 64}, split_rows{1, 1 << 22, 1};
    const std::vector<Layout> f32_only{{1, 200003, 4}, {64, 1001, 1}, {2, 100, 3}};
    for (int o = 0; o <= int(ReduceOp::All); ++o) {
      const ReduceOp op = ReduceOp(o);
      const bool logical = op == ReduceOp::Any || op == ReduceOp::All;
      const bool arg = op == ReduceOp::ArgMax || op == ReduceOp::ArgMin;
      std::vector<DType> ins = minimal ? std::vector<DType>{DType::F16} : floats;
      if (logical && !minimal) ins.insert(ins.end(), {DType::I32, DType::I8, DType::U8});
      for (DType t : ins) {
        std::vector<Layout> layouts{rows};
        if (!minimal) layouts.push_back(columns);
        if (!minimal && (t == DType::F32 || t == DType::F16)) layouts.push_back(split_rows);
        if (!minimal && t == DType::F32) layouts.insert(layouts.end(), f32_only.begin(), f32_only.end());
        for (const Layout& l : layouts) {
          ReduceCall c;
          c.op = op;
          c.outer = l.outer, c.reduced = l.reduced, c.inner = l.inner;
          c.x.dtype = t;
          c.y.dtype = arg ? DType::I32 : logical ? DType::U8 : t;
          const auto defaults = [&](const KernelFamily& f, const Problem&) { return f.defaults(caps); };
          for (ReducePass pass : reduce_passes(c, caps, defaults)) {
            pass.problem.splits = pass.split.splits;  // as the launch sets it
            compile(std::string(reduce_op_name(op)) + " " + std::string(dtype_name(t)) + mode, *pass.family,
                    pass.params, pass.problem);
          }
        }
      }
    }
    // norm_rows: each operator, type and strategy (forced, as the tests
    // force them), rows that allow no pack for the f32 norms, the optional
    // operands in turn: without, gamma (and beta), and statistics in f32 or
    // x's type (layer_norm).
    const auto& norm = families::norm_rows();
    const Params strategies[] = {{{"REG_TPR", 32}, {"REG_MAX", 32}, {"LOCAL_MAX", 0}},
                                 {{"REG_TPR", 1}, {"REG_MAX", 1}, {"LOCAL_MAX", 8192}},
                                 {{"REG_TPR", 1}, {"REG_MAX", 1}, {"LOCAL_MAX", 0}}};
    const auto compile_norm = [&](int o, DType t, int strategy, std::size_t cols, int extras) {
      NormCall c;
      c.op = NormOp(o);
      c.rows = 64, c.cols = cols;
      c.x.dtype = c.y.dtype = t;
      if (extras > 0) {
        Operand v;
        v.dtype = t;
        c.gamma = v;
        if (c.op == NormOp::LayerNorm) c.beta = v;
      }
      if (extras > 1) {
        Operand st;
        st.dtype = extras == 2 ? DType::F32 : t;
        c.mean = c.rstd = st;
      }
      const NormProblem pr = norm_problem(c);
      compile("norm_rows op " + std::to_string(o) + " " + std::string(dtype_name(t)) + mode, norm,
              norm.fit(strategies[strategy], caps, pr), pr);
    };
    for (int o = 0; o <= int(NormOp::RmsNorm); ++o) {
      const int n = o == int(NormOp::LayerNorm) ? 4 : o == int(NormOp::RmsNorm) ? 2 : 1;
      if (minimal) {
        compile_norm(o, DType::F16, o % 3, 1024, n - 1);
        continue;
      }
      for (DType t : floats) {
        for (int strategy = 0; strategy < 3; ++strategy) compile_norm(o, t, strategy, 1024, strategy % n);
        if (n == 4) compile_norm(o, t, 0, 1024, 3);
        if (n > 1 && t == DType::F32)
          for (int strategy = 0; strategy < 3; ++strategy) compile_norm(o, t, strategy, 1001, (strategy + 1) % n);
      }
    }
    // softmax_cols: softmax and log_softmax in each type.
    const auto& cols = families::softmax_cols();
    for (bool log : {false, true})
      for (DType t : minimal ? std::vector<DType>{DType::F16} : floats) {
        SoftmaxColsCall c;
        c.log = log;
        c.outer = 2, c.rows = 100, c.inner = 64;
        c.x.dtype = c.y.dtype = t;
        compile(std::string(log ? "log_softmax" : "softmax") + " columns " + std::string(dtype_name(t)) + mode, cols,
                cols.fit(cols.defaults(caps), caps, softmax_cols_problem(c)), softmax_cols_problem(c));
      }
    compiled += compile.compiled();
  }
  std::printf("%d NVRTC compiles\n", compiled);
}

// conv_direct, conv_depthwise, conv_im2col, conv_winograd and conv_implicit as their hosts build them for an H100:
// each storage type and layout (mixed ones on direct), the packs fit allows
// there (VW up to 4, WPT stored as one pack), 3x3 and (f32) 5x3 filters,
// with and without an activation (gelu: the one that uses erfc).
TEST(CudaNvrtcOps, ConvDefines) {
  Compiler compile(test::sm90_caps());
  const Capabilities& caps = compile.caps();
  const auto& direct = families::conv_direct();
  const auto& dw = families::conv_depthwise();
  const auto& im2col = families::conv_im2col();
  const auto& wino = families::conv_winograd();
  const auto& implicit = families::conv_implicit();
  for (DType t : {DType::F32, DType::F16, DType::BF16})
    for (bool in_nhwc : {false, true})
      for (bool out_nhwc : {false, true})
        for (Unary act : {Unary::Copy, Unary::Gelu}) {
          ConvProblem pr = conv_kernels::make(t, 2, 16, 9, 12, 16, 3, 3, 1, 1, 16, in_nhwc);
          pr.out_nhwc = out_nhwc;
          pr.activation = act;
          const std::string what = std::string(dtype_name(t)) + (in_nhwc ? " nhwc" : " nchw") +
                                   (out_nhwc ? "->nhwc " : "->nchw ") + std::string(unary_name(act));
          for (std::int64_t kpt : {1, 16}) compile("conv_direct " + what, direct, direct.fit({{"KPT", kpt}}, caps, pr), pr);
          if (act == Unary::Copy && out_nhwc) compile("conv_im2col " + what, im2col, im2col.fit({}, caps, pr), pr);
          {
            // Winograd: one program holds the three transforms.
            ConvProblem one_group = pr;
            one_group.groups = 1;
            compile("conv_winograd " + what, wino, wino.fit({}, caps, one_group), one_group);
            // Fused: the defaults and the H200 entries' shapes, with and
            // without the prefetch.
            const auto& fused = families::conv_winograd_fused();
            for (const Params& named : {Params{}, Params{{"BK", 16}, {"KPT", 4}, {"CU", 2}},
                                        Params{{"CU", 4}, {"PREFETCH", 0}}})
              compile("conv_winograd_fused " + what, fused, fused.fit(named, caps, one_group), one_group);
          }
          {
            // The implicit GEMM: the H100 defaults on the shape
            // (128 x 64 tiles) everywhere; in one layout per side, f32 and
            // f16, also large tiles (256 x 128: 48 KiB of static shared
            // memory at KWG 16, which check refuses, so KWG 8) and the
            // smallest (what fit leaves on small problems).
            ConvProblem big = conv_kernels::make(t, 32, 64, 56, 56, 64, 3, 3, 1, 1, 1, in_nhwc);
            big.out_nhwc = out_nhwc;
            big.activation = act;
            // Every parameter from the defaults, the named ones replaced.
            const auto with = [&](const Params& named) {
              Params q = implicit.defaults(caps);
              for (const auto& [k, v] : named) q[k] = v;
              return q;
            };
            const Params large =
                with({{"MWG", 256}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 32}, {"NDIMC", 16}, {"MMA", 0}});
            EXPECT_NE(implicit.check(large, caps, big).find("local memory"), std::string::npos);
            std::vector<Params> sets{implicit.fit({}, caps, big)};
            // The tensor-core variant in f16 and bf16 (the defaults' tiles
            // and a narrow one: one warp tile of 16 columns).
            if (t != DType::F32 && act == Unary::Copy)
              for (Params p : {implicit.fit({{"MMA", 1}}, caps, big),
                               implicit.fit({{"MMA", 1}, {"MWG", 64}, {"NWG", 16}, {"KWG", 32}, {"MDIMC", 8},
                                             {"NDIMC", 8}},
                                            caps, big)}) {
                EXPECT_EQ(p.at("MMA"), 1);
                sets.push_back(p);
              }
            if (act == Unary::Copy && in_nhwc == out_nhwc && t != DType::BF16) {
              Params shallow = large;
              shallow["KWG"] = 8;
              sets.push_back(shallow);
              sets.push_back(with({{"MWG", 16}, {"NWG", 4}, {"KWG", 8}, {"MDIMC", 8}, {"NDIMC", 4}, {"MMA", 0}}));
              // Packed local reads, NHWC packs and a split depth; the depth
              // over channels and taps together.
              sets.push_back(implicit.fit(with({{"MWG", 64}, {"NWG", 64}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 4},
                                                {"VWN", 4}, {"SPLITK", 4}, {"MMA", 0}}),
                                          caps, big));
              sets.push_back(implicit.fit(with({{"FLAT", 1}, {"SPLITK", 2}}), caps, big));
            }
            for (const Params& p : sets) {
              EXPECT_EQ(implicit.check(p, caps, big), "");
              compile("conv_implicit " + what, implicit, p, big);
            }
          }
          if (in_nhwc != out_nhwc) continue;
          for (std::int64_t r : {3, 5}) {
            if (r == 5 && t != DType::F32) continue;
            pr.r = r;
            // (NCHW: the staged rows, LOC, with every pack, where they apply.)
            if (in_nhwc)
              for (std::int64_t vw : {1, 2, 4})
                for (std::int64_t ppt : {1, 4})
                  compile("conv_depthwise " + what, dw, dw.fit({{"VW", vw}, {"PPT", ppt}}, caps, pr), pr);
            else
              for (std::int64_t wpt : {1, 2, 4, 8})
                for (std::int64_t loc : {0, 1})
                  if (loc == 0 || (wpt > 1 && wpt <= 4))
                    compile("conv_depthwise " + what, dw, dw.fit({{"WPT", wpt}, {"LOC", loc}, {"RPT", 8}}, caps, pr),
                            pr);
          }
        }
  std::printf("%d NVRTC compiles\n", compile.compiled());
}

// ---- BLAS ----

// Every BLAS family's example problem of each bucket and type the device
// runs, under each parameter set of `sets` (fitted; those the family then
// refuses are skipped).
template <class Family>
void compile_examples(Compiler& compile, const Family& fam, const std::vector<Params>& sets) {
  const Capabilities& caps = compile.caps();
  for (DType t : fam.dtypes(caps))
    for (const std::string& b : fam.buckets()) {
      const typename Family::ProblemType pr = fam.make_example(t, b, caps);
      for (const Params& s : sets) {
        const Params p = fam.fit(s, caps, pr);
        if (!fam.check(p, caps, pr).empty()) continue;
        compile(fam.name() + " " + std::string(dtype_name(t)) + " " + b, fam, p, pr);
      }
    }
}

TEST(CudaNvrtcOps, BlasDefines) {
  Compiler compile(test::sm90_caps());
  compile_examples(compile, families::blas1(), {{}});
  // symv's register path at one and several slow indices per work-item, and
  // the local-memory path alone (WGS > SB^2 / 4).
  compile_examples(compile, families::blas2(),
                   {{}, {{"WGS", 64}, {"SB", 16}}, {{"WGS", 64}, {"SB", 32}, {"VW", 2}}, {{"WGS", 128}, {"SB", 16}}});
  compile_examples(compile, families::blas_tri(), {{}, {{"NB", 32}, {"WGS", 64}}});
  compile_examples(compile, families::blas3(), {{}});
  compile_examples(compile, families::blas_extra(), {{}});
  std::printf("%d NVRTC compiles\n", compile.compiled());
}

#else  // !OPTUNE_WITH_CUDA

TEST(CudaNvrtcOps, NotBuilt) { GTEST_SKIP() << "optune was built without the CUDA toolkit"; }

#endif
