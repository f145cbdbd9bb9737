// Each element-wise operator class under forced kernel parameters: every pack
// width the operands allow, the grid-stride loop on and off (over grids of 1,
// 4 and 8 waves, with arrays long enough for the loop to come round), and
// work-group sizes; through the operators' own calls (detail::*_call) and the
// tuner's entry (run_elementwise with forced parameters). Lengths cover the
// packs, the tail of n mod VW, and several grid strides.
#include <cmath>
#include <functional>

#include "kernels/families.hpp"
#include "ops/elementwise_ops.hpp"
#include "ops/elementwise_plan.hpp"
#include "reference/elementwise_ref.hpp"
#include "support/elementwise_cases.hpp"

using namespace optune;
using detail::ElementwiseCall;
using detail::Params;

namespace {

// An operator class: input types, value ranges, the call, and its reference
// from the stored inputs. broadcast: the second input has shape [1].
struct Case {
  std::string name;
  std::vector<DType> in;
  DType out;
  double lo, hi;
  bool special, broadcast = false, zero_sign = true, full = false;
  std::function<ElementwiseCall(const std::vector<Operand>&, const Operand&)> call;
  std::function<double(const std::vector<double>&)> ref;
};

std::vector<Case> cases() {
  const auto in = [](std::size_t k) { return [k](const std::vector<double>& v) { return v[k]; }; };
  std::vector<Case> c;
  c.push_back({"gelu f32", {DType::F32}, DType::F32, -5, 5, true, false, true, true,
               [](auto& i, auto& y) { return detail::unary_call(Unary::Gelu, i[0], y, {}); },
               [](auto& v) { return ref::unary(Unary::Gelu, v[0]); }});
  c.push_back({"neg f16", {DType::F16}, DType::F16, -8, 8, true, false, true, false,
               [](auto& i, auto& y) { return detail::unary_call(Unary::Neg, i[0], y, {}); },
               [](auto& v) { return -v[0]; }});
  if (test::device().caps().fp64)
    c.push_back({"exp f64", {DType::F64}, DType::F64, -15, 15, true, false, true, false,
                 [](auto& i, auto& y) { return detail::unary_call(Unary::Exp, i[0], y, {}); },
                 [](auto& v) { return std::exp(v[0]); }});
  c.push_back({"add f32, b broadcast", {DType::F32, DType::F32}, DType::F32, -4, 4, true, true, true, false,
               [](auto& i, auto& y) { return detail::binary_call(Binary::Add, i[0], i[1], y); },
               [](auto& v) { return v[0] + v[1]; }});
  // Consecutive, so that their rotations run the one pack width (1) with the
  // grid-stride loop off and on.
  c.push_back({"sub f16, b broadcast", {DType::F16, DType::F16}, DType::F16, -4, 4, true, true, true, false,
               [](auto& i, auto& y) { return detail::binary_call(Binary::Sub, i[0], i[1], y); },
               [](auto& v) { return v[0] - v[1]; }});
  c.push_back({"mul f16", {DType::F16, DType::F16}, DType::F16, -4, 4, true, false, true, false,
               [](auto& i, auto& y) { return detail::binary_call(Binary::Mul, i[0], i[1], y); },
               [](auto& v) { return v[0] * v[1]; }});
  c.push_back({"fma f32", {DType::F32, DType::F32, DType::F32}, DType::F32, -4, 4, false, false, true, false,
               [](auto& i, auto& y) { return detail::ternary_call(Ternary::Fma, i[0], i[1], i[2], y, {}); },
               [](auto& v) { return v[0] * v[1] + v[2]; }});
  c.push_back({"where u8 mask, f16 values", {DType::U8, DType::F16, DType::F16}, DType::F16, 0, 2, false, false, true,
               false, [](auto& i, auto& y) { return detail::ternary_call(Ternary::Where, i[0], i[1], i[2], y, {}); },
               [](auto& v) { return v[0] != 0 ? v[1] : v[2]; }});
  c.push_back({"clamp i32", {DType::I32, DType::I32, DType::I32}, DType::I32, -100, 100, false, false, true, false,
               [](auto& i, auto& y) { return detail::ternary_call(Ternary::Clamp, i[0], i[1], i[2], y, {}); },
               [](auto& v) { return ref::ternary(Ternary::Clamp, v[0], v[1], v[2]); }});
  c.push_back({"cast f32 to f16", {DType::F32}, DType::F16, -70000, 70000, true, false, true, false,
               [](auto& i, auto& y) { return detail::cast_call(i[0], y); }, in(0)});
  c.push_back({"cast f16 to u8", {DType::F16}, DType::U8, -300, 300, true, false, true, false,
               [](auto& i, auto& y) { return detail::cast_call(i[0], y); }, in(0)});
  c.push_back({"cast i32 to f32", {DType::I32}, DType::F32, -3e6, 3e6, false, false, true, false,
               [](auto& i, auto& y) { return detail::cast_call(i[0], y); }, in(0)});
  return c;
}

// Pack widths 1..16 (and 0, the automatic one) with grid-stride off and on,
// packs per work-item (EPT) in turn where the operands are dense (strided
// ones move one element per work-item). The first case takes every
// work-group size and wave count; the others one of each and, to spare
// compiles, the grid-stride loop off or on in turn, starting from a rotation
// so that across cases each pack width meets both.
std::vector<Params> parameter_sets(bool full, int rotation, bool contiguous) {
  std::vector<Params> out;
  const std::int64_t wgs_list[] = {64, 256, 1024}, waves_list[] = {1, 4, 8}, ept_list[] = {1, 2, 4};
  int i = rotation;
  for (std::int64_t vw : {0, 1, 2, 4, 8, 16}) {  // 0: the 16-byte pack of the widest operand
    for (std::int64_t gs : {0, 1})
      for (std::int64_t wgs : wgs_list)
        for (std::int64_t waves : waves_list) {
          if (!gs && waves != 4) continue;  // WAVES only applies to the grid-stride grid
          if (!full && (gs != i % 2 || wgs != wgs_list[i % 3] || (gs && waves != waves_list[(i / 2) % 3]))) continue;
          out.push_back({{"VW", vw}, {"WGS", wgs}, {"GRID_STRIDE", gs}, {"WAVES", waves}, {"EPT", contiguous ? ept_list[i % 3] : 1}});
        }
    ++i;
  }
  return out;
}

// Runs case c at length n with parameters p and compares with the reference.
void check(const Case& c, std::size_t n, const Params& p) {
  const Queue& q = test::queue();
  std::vector<std::vector<double>> x;
  std::vector<ref::DeviceData> dx;
  std::vector<Operand> ox;
  for (std::size_t k = 0; k < c.in.size(); ++k) {
    const std::size_t len = c.broadcast && k == 1 ? 1 : n;
    x.push_back(ref::random_values(c.in[k], len, c.lo, c.hi, c.special));
    dx.push_back(ref::upload(q, c.in[k], x.back()));
    ox.push_back(dx.back().operand({std::int64_t(len)}));
  }
  auto dy = ref::upload(q, c.out, std::vector<double>(n, 0));
  ref::poison(q, dy);
  const Operand oy = dy.operand({std::int64_t(n)});
  detail::run_elementwise(q, c.call(ox, oy), {}, &p).wait();
  const auto y = ref::download(q, dy);
  const test::Tol tol = test::tolerance(c.out);
  std::vector<double> v(c.in.size());
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = x[k][c.broadcast && k == 1 ? 0 : i];
    const bool integer_in = ref::is_integer(c.in.back()) && ref::is_integer(c.out);
    const double want = ref::is_integer(c.out) ? ref::store_as(c.out, c.ref(v), integer_in) : c.ref(v);
    ASSERT_TRUE(ref::matches(c.out, y[i], want, tol.rtol, tol.atol, c.zero_sign))
        << c.name << " n=" << n << " i=" << i << " params " << detail::params_to_json(p);
  }
}

}  // namespace

TEST(ElementwiseParams, EveryOperatorClassUnderForcedParameters) {
  const Queue& q = test::queue();
  const Capabilities& caps = q.device().caps();
  const auto& fam = detail::families::elementwise();
  int rotation = 0;
  for (const Case& c : cases()) {
    // The problem this class poses (pack limits from its operand types and
    // layout), to keep the parameter sets the family accepts for it.
    std::vector<ref::DeviceData> d;
    std::vector<Operand> ox;
    for (std::size_t k = 0; k < c.in.size(); ++k) d.push_back(ref::upload(q, c.in[k], {0, 0}));
    for (std::size_t k = 0; k < c.in.size(); ++k) ox.push_back(d[k].operand({c.broadcast && k == 1 ? 1 : 2}));
    auto dy = ref::upload(q, c.out, {0, 0});
    const Operand oy = dy.operand({2});
    const ElementwiseCall call = c.call(ox, oy);
    std::vector<const Operand*> ins;
    for (const Operand& o : ox) ins.push_back(&o);
    detail::ElementwiseProblem pr = detail::elementwise_problem(call, detail::plan_elementwise("test", q, ins, {&oy}));
    int tried = 0;
    for (const Params& p : parameter_sets(c.full, rotation++, pr.contiguous)) {
      if (!fam.check(p, caps, pr).empty()) continue;
      const Params fitted = fam.fit(p, caps, pr);  // VW = 0 resolved, as a launch does
      const std::int64_t vw = fitted.at("VW"), ept = fitted.at("EPT");
      std::vector<std::size_t> lengths{1, 2, 3, 17, 63, 1025};
      for (std::int64_t n : {vw - 1, vw, vw + 1, 2 * vw + 3})
        if (n > 3) lengths.push_back(std::size_t(n));
      if (p.at("GRID_STRIDE")) {  // past one grid of packs: the loop comes round
        pr.n = std::int64_t(1) << 30;
        lengths.push_back(fam.geometry(fitted, caps, pr).global[0] * std::size_t(vw * ept) + std::size_t(vw) + 3);
      }
      for (std::size_t n : lengths) {
        SCOPED_TRACE(c.name + " n=" + std::to_string(n) + " " + detail::params_to_json(p));
        check(c, n, p);
        if (HasFatalFailure()) return;
      }
      ++tried;
    }
    // Every pack width the operands allow ran (only 1 for a broadcast).
    EXPECT_GE(tried, c.broadcast ? 1 : 2) << c.name;
  }
}
