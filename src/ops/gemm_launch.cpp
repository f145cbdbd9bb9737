// The GEMM routine: the direct kernel, or the tiled kernel with its helper
// passes (pad, pad-transpose, copy back) for operands that do not fit its
// layout; which one by the gemm_routine family's threshold.
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

#include "kernels/gemm/gemm.hpp"
#include "ops/elementwise_ops.hpp"
#include "ops/gemm_ops.hpp"
#include "ops/params.hpp"
#include "ops/reduce_plan.hpp"
#include "ops/validate.hpp"
#include "runtime/embedded.hpp"
#include "runtime/log.hpp"

namespace optune::detail {

namespace {

// CUDA grids have at most 65535 groups in y and z; longer batches launch in
// chunks (z0 is the chunk's first product).
constexpr std::int64_t kMaxGridZ = 65535;

bool epi_double(const GemmCall& c) { return c.dtype == DType::F64; }
std::size_t epi_bytes(const GemmCall& c) { return epi_double(c) ? 8 : 4; }

KernelArg real_arg(const GemmCall& c, double v) {
  return epi_double(c) ? KernelArg::scalar(v) : KernelArg::scalar(float(v));
}
KernelArg ulong_arg(std::uint64_t v) { return KernelArg::scalar(v); }

double act_param(const GemmCall& c, std::size_t i) {
  return i < c.activation_params.size() ? c.activation_params[i] : 0.0;
}

// The list-batch table: 3 offsets per product, then (alpha, beta) pairs of
// the epilogue type. Written before the call returns (a blocking write), so
// no host memory outlives the call.
Buffer<std::uint8_t> upload_table(const Queue& q, const GemmCall& c) {
  const std::size_t batch = std::size_t(c.batch), eb = epi_bytes(c);
  std::vector<std::uint8_t> host(batch * 24 + batch * 2 * eb);
  for (std::size_t i = 0; i < batch; ++i) {
    const std::uint64_t o[3] = {std::uint64_t(c.a_offsets[i]), std::uint64_t(c.b_offsets[i]),
                                std::uint64_t(c.c_offsets[i])};
    std::memcpy(&host[i * 24], o, 24);
    for (int j = 0; j < 2; ++j) {
      const double v = j ? c.betas[i] : c.alphas[i];
      std::uint8_t* dst = &host[batch * 24 + (2 * i + std::size_t(j)) * eb];
      if (eb == 8) std::memcpy(dst, &v, 8);
      else { const float f = float(v); std::memcpy(dst, &f, 4); }
    }
  }
  Buffer<std::uint8_t> b = q.context().alloc<std::uint8_t>(host.size());
  q.upload(b, std::span<const std::uint8_t>(host));
  return b;
}

KernelPtr gemm_kernel(const Queue& q, const std::string& source, const std::string& entry, const GemmCall& c,
                      const Defines& d) {
  const std::string text = gemm_program_text(source, c.activation);
  return get_program_from_text(*q.context().impl(), source, text, d)->kernel(entry);
}

// The kernels' flags argument (gemm_common.cl's GEMM_* bits).
std::uint32_t gemm_flags(const GemmCall& c, bool a_list, bool b_list, bool c_list) {
  std::uint32_t f = 0;
  if (a_list) f |= 1u;
  if (b_list) f |= 2u;
  if (c_list) f |= 4u;
  if (c.list) f |= 8u;
  if (c.bias_mode == 1) f |= 16u;
  if (c.bias_mode == 2) f |= 32u;
  if (c.trans_a) f |= 64u;
  if (c.trans_b) f |= 128u;
  return f;
}

void add_params(Defines& d, const Params& p) {
  for (const auto& [k, v] : p) d.emplace_back(k, std::to_string(v));
}

// Launches over the batch in chunks of at most kMaxGridZ products; `args`
// ends with z0's slot, followed by `tail`.
Event launch_batched(const Queue& q, KernelImpl& k, std::vector<KernelArg> args, std::vector<KernelArg> tail,
                     Geometry g, std::int64_t batch, const WaitList& wait, EventSpan& span) {
  const std::size_t z_slot = args.size();
  args.push_back(ulong_arg(0));
  args.insert(args.end(), tail.begin(), tail.end());
  Event last;
  for (std::int64_t z0 = 0; z0 < batch; z0 += kMaxGridZ) {
    args[z_slot] = ulong_arg(std::uint64_t(z0));
    g.global[2] = std::size_t(std::min(kMaxGridZ, batch - z0));
    last = launch_kernel(q, k, args, g, z0 == 0 ? wait : WaitList{});
    span.add(last);
  }
  return last;
}

// ---- scratch for the tiled path ----
// Padded operands and the raw product, kept per queue and grown on demand:
// the queue runs in order, so one call's kernels start after the previous
// call's are done with them, and no allocation (which synchronises on CUDA)
// sits in the steady state. The lock is held while a call enqueues.
struct GemmScratch {
  std::weak_ptr<QueueImpl> owner;
  std::shared_ptr<std::mutex> mutex = std::make_shared<std::mutex>();
  std::shared_ptr<MemImpl> mem[3];
};

struct ScratchLease {
  std::unique_lock<std::mutex> lock;
  std::shared_ptr<MemImpl> mem[3];
};

ScratchLease lease_scratch(const Queue& q, const std::size_t (&bytes)[3]) {
  static std::mutex registry_mutex;
  static std::map<const QueueImpl*, GemmScratch> registry;
  std::shared_ptr<std::mutex> m;
  GemmScratch* entry = nullptr;
  {
    std::lock_guard lock(registry_mutex);
    for (auto it = registry.begin(); it != registry.end();)
      it = it->second.owner.expired() ? registry.erase(it) : std::next(it);
    GemmScratch& e = registry[q.impl().get()];
    if (e.owner.expired()) e = GemmScratch{q.impl()};
    m = e.mutex;
    entry = &e;
  }
  ScratchLease s{std::unique_lock<std::mutex>(*m), {}};
  for (int i = 0; i < 3; ++i) {
    if (bytes[i] == 0) continue;
    std::shared_ptr<MemImpl>& slot = entry->mem[i];
    if (!slot || mem_bytes(*slot) < bytes[i]) {
      slot.reset();  // free the old one first
      slot = q.context().alloc<std::uint8_t>(bytes[i]).mem();
    }
    s.mem[i] = slot;
  }
  return s;
}

// ---- the direct path ----

Event run_direct(const Queue& q, const GemmCall& c, const Params& p, const MemImpl& table, const WaitList& wait,
                 EventSpan& span) {
  const Problem pr = gemm_problem(c);
  const auto& fam = static_cast<const GemmDirectFamily&>(find_family("gemm_direct"));
  Defines d = gemm_type_defines(c);
  add_params(d, p);
  KernelPtr k = gemm_kernel(q, "gemm/gemm_direct.cl", "gemm_direct", c, d);
  const MemImpl& bias = c.bias ? *c.bias : *c.c.mem;
  std::vector<KernelArg> args{ulong_arg(std::uint64_t(c.m)), ulong_arg(std::uint64_t(c.n)),
                              ulong_arg(std::uint64_t(c.k)), real_arg(c, c.alpha), real_arg(c, c.beta)};
  for (const GemmOperand* o : {&c.a, &c.b, &c.c}) {
    args.push_back(KernelArg::buffer(*o->mem));
    args.insert(args.end(), {ulong_arg(o->offset), ulong_arg(std::uint64_t(o->ld)), ulong_arg(std::uint64_t(o->stride))});
  }
  args.insert(args.end(), {KernelArg::buffer(bias), ulong_arg(c.bias_offset), KernelArg::buffer(table),
                           ulong_arg(std::uint64_t(c.batch)),
                           KernelArg::scalar(gemm_flags(c, c.list, c.list, c.list))});
  return launch_batched(q, *k, args, {real_arg(c, act_param(c, 0)), real_arg(c, act_param(c, 1))},
                        fam.geometry(p, q.device().caps(), pr), c.batch, wait, span);
}

// ---- the tiled path ----

// An operand's offsets (every product's) are multiples of vw.
bool offsets_aligned(const GemmOperand& o, const std::vector<std::int64_t>& list, bool use_list, std::int64_t vw) {
  if (o.offset % std::size_t(vw) || o.ld % vw || o.stride % vw) return false;
  if (use_list)
    for (std::int64_t off : list)
      if (off % vw) return false;
  return true;
}

// Whether the tiled kernel can address the operand in place with 32-bit
// tile offsets.
bool small_ld(std::int64_t ld, std::int64_t rows) { return ld * rows < (std::int64_t(1) << 31); }

// Whether the tiled kernel can load an operand stored with its rows along K
// (A_KCONTIG, B_KCONTIG): staged in local memory, rows of whole vectors, and
// the group's work-items cover the tile in whole rows.
bool kcontig_ok(const Params& p, bool staged, std::int64_t tile, std::int64_t vw) {
  const std::int64_t wgs = p.at("MDIMC") * p.at("NDIMC"), kwg = p.at("KWG");
  if (!staged || kwg % vw) return false;
  const std::int64_t per_row = kwg / vw;
  return wgs % per_row == 0 && tile % (wgs / per_row) == 0;
}

// dst (rows_p x cols_p per product, dense) = the operand, transposed or
// not, zero-padded.
void pad_operand(const Queue& q, const GemmCall& c, const GemmOperand& src, bool list, int which, bool transpose,
                 std::int64_t rows, std::int64_t cols, std::int64_t rows_p, std::int64_t cols_p,
                 const MemImpl& dst, const MemImpl& table, std::size_t tile, const WaitList& wait, EventSpan& span) {
  Defines d = gemm_type_defines(c);
  d.emplace_back("TILE", std::to_string(tile));
  const char* entry = transpose ? "gemm_pad_transpose" : "gemm_pad";
  KernelPtr k = gemm_kernel(q, "gemm/gemm_helpers.cl", entry, c, d);
  std::vector<KernelArg> args{ulong_arg(std::uint64_t(rows)),   ulong_arg(std::uint64_t(cols)),
                              ulong_arg(std::uint64_t(rows_p)), ulong_arg(std::uint64_t(cols_p)),
                              KernelArg::buffer(*src.mem),      ulong_arg(src.offset),
                              ulong_arg(std::uint64_t(src.ld)), ulong_arg(std::uint64_t(src.stride)),
                              KernelArg::buffer(dst),           KernelArg::buffer(table),
                              KernelArg::scalar(std::uint32_t(list)), KernelArg::scalar(std::uint32_t(which))};
  Geometry g;
  g.dims = 3;
  g.local[0] = g.local[1] = tile;
  // gemm_pad: x along the destination's columns; the transposing kernel: x
  // along its rows (the source's contiguous dimension) and y along columns.
  g.global[0] = round_up(std::size_t(transpose ? rows_p : cols_p), tile);
  g.global[1] = round_up(std::size_t(transpose ? cols_p : rows_p), tile);
  launch_batched(q, *k, args, {}, g, c.batch, wait, span);
}

Event run_tiled(const Queue& q, const GemmCall& c, const Params& p, const MemImpl& table, const WaitList& wait,
                EventSpan& span) {
  const Capabilities& caps = q.device().caps();
  const Problem pr = gemm_problem(c);
  const auto& fam = static_cast<const GemmTiledFamily&>(find_family("gemm_tiled"));
  const std::int64_t mwg = p.at("MWG"), nwg = p.at("NWG"), kwg = p.at("KWG"), vwm = p.at("VWM"), vwn = p.at("VWN");
  const std::int64_t mp = (c.m + mwg - 1) / mwg * mwg, np = (c.n + nwg - 1) / nwg * nwg,
                     kp = (c.k + kwg - 1) / kwg * kwg;
  // A fits stored K x M, or M x K when the kernel can transpose it on its
  // way to local memory (KCONTIG = 1; the in-kernel transposition costs
  // scattered local stores, a separate pass costs a read and a write of A);
  // B likewise (K x N, or N x K). cp.async (ASYNC) copies tiles unchanged,
  // so it needs K x M and K x N.
  const bool async = p.at("ASYNC"), kcontig = p.at("KCONTIG");
  const bool a_kc = kcontig && !async && !c.trans_a && kcontig_ok(p, p.at("SA"), mwg, vwm);
  const bool b_kc = kcontig && !async && c.trans_b && kcontig_ok(p, p.at("SB"), nwg, vwn);
  const bool a_fits = (c.trans_a || a_kc) && c.m == mp && c.k == kp &&
                      offsets_aligned(c.a, c.a_offsets, c.list, vwm) && small_ld(c.a.ld, c.trans_a ? kwg : mwg);
  const bool b_fits = (!c.trans_b || b_kc) && c.n == np && c.k == kp &&
                      offsets_aligned(c.b, c.b_offsets, c.list, vwn) && small_ld(c.b.ld, c.trans_b ? nwg : kwg);
  const bool c_fits = c.m == mp && c.n == np && offsets_aligned(c.c, c.c_offsets, c.list, vwn);
  const std::size_t tb = dtype_size(c.dtype), batch = std::size_t(c.batch);
  const std::size_t bytes[3] = {
      a_fits ? 0 : validate::mul("gemm: padded A", std::size_t(kp * mp) * tb, batch),
      b_fits ? 0 : validate::mul("gemm: padded B", std::size_t(kp * np) * tb, batch),
      c_fits ? 0 : validate::mul("gemm: padded C", std::size_t(mp * np) * epi_bytes(c), batch)};
  ScratchLease s = lease_scratch(q, bytes);

  const std::size_t tile = caps.max_work_group_size >= 256 ? 16 : 8;
  WaitList pending = wait;
  GemmOperand a = c.a, b = c.b, out = c.c;
  if (!a_fits) {
    pad_operand(q, c, c.a, c.list, 0, !c.trans_a, c.k, c.m, kp, mp, *s.mem[0], table, tile, pending, span);
    pending.clear();
    a = GemmOperand{s.mem[0], 0, mp, kp * mp};
  }
  if (!b_fits) {
    pad_operand(q, c, c.b, c.list, 1, c.trans_b, c.k, c.n, kp, np, *s.mem[1], table, tile, pending, span);
    pending.clear();
    b = GemmOperand{s.mem[1], 0, np, kp * np};
  }
  if (!c_fits) out = GemmOperand{s.mem[2], 0, np, mp * np};

  Defines d = gemm_type_defines(c);
  add_params(d, p);
  d.insert(d.end(), {{"C_DIRECT", c_fits ? "1" : "0"}, {"COMP_HALF", c.comp_half ? "1" : "0"},
                     {"A_KCONTIG", a_fits && !c.trans_a ? "1" : "0"}, {"B_KCONTIG", b_fits && c.trans_b ? "1" : "0"}});
  KernelPtr k = gemm_kernel(q, "gemm/gemm_tiled.cl", "gemm_tiled", c, d);
  const MemImpl& bias = c.bias ? *c.bias : *c.c.mem;
  std::vector<KernelArg> args{ulong_arg(std::uint64_t(kp)), real_arg(c, c.alpha), real_arg(c, c.beta)};
  for (const GemmOperand* o : {&a, &b, &out}) {
    args.push_back(KernelArg::buffer(*o->mem));
    args.insert(args.end(), {ulong_arg(o->offset), ulong_arg(std::uint64_t(o->ld)), ulong_arg(std::uint64_t(o->stride))});
  }
  args.insert(args.end(), {KernelArg::buffer(bias), ulong_arg(c.bias_offset), KernelArg::buffer(table),
                           ulong_arg(std::uint64_t(c.batch)),
                           KernelArg::scalar(gemm_flags(c, c.list && a_fits, c.list && b_fits, c.list && c_fits))});
  Problem padded = pr;
  padded.sizes[0] = mp, padded.sizes[1] = np;
  Event e = launch_batched(q, *k, args, {real_arg(c, act_param(c, 0)), real_arg(c, act_param(c, 1))},
                           fam.geometry(p, caps, padded), c.batch, pending, span);
  if (c_fits) return e;

  Defines dc = gemm_type_defines(c);
  dc.emplace_back("TILE", std::to_string(tile));
  KernelPtr kc = gemm_kernel(q, "gemm/gemm_helpers.cl", "gemm_copy_back", c, dc);
  std::vector<KernelArg> cargs{ulong_arg(std::uint64_t(c.m)), ulong_arg(std::uint64_t(c.n)), real_arg(c, c.alpha),
                               real_arg(c, c.beta), KernelArg::buffer(*out.mem), ulong_arg(std::uint64_t(np)),
                               ulong_arg(std::uint64_t(mp * np)), KernelArg::buffer(*c.c.mem), ulong_arg(c.c.offset),
                               ulong_arg(std::uint64_t(c.c.ld)), ulong_arg(std::uint64_t(c.c.stride)),
                               KernelArg::buffer(bias), ulong_arg(c.bias_offset), KernelArg::buffer(table),
                               ulong_arg(std::uint64_t(c.batch)), KernelArg::scalar(gemm_flags(c, false, false, c.list))};
  Geometry g;
  g.dims = 3;
  g.local[0] = g.local[1] = tile;
  g.global[0] = round_up(std::size_t(c.n), tile);
  g.global[1] = round_up(std::size_t(c.m), tile);
  return launch_batched(q, *kc, cargs, {real_arg(c, act_param(c, 0)), real_arg(c, act_param(c, 1))}, g, c.batch,
                        {}, span);
}

// The tuned parameters adjusted to this call: vector widths the backend has
// for the type; then, while they cannot run, two cp.async stages instead of
// three, no cp.async (ASYNC is for some types and devices only, and
// OPTUNE_PARAMS applies to every type), one stage instead of two. Empty when
// the tiled kernel cannot run the call (the direct kernel then does).
std::optional<Params> fit_tiled(const Params& tuned, const Capabilities& caps, const Problem& pr) {
  const auto& fam = find_family("gemm_tiled");
  Params p = fam.complete(tuned, caps);
  while (p["VWM"] > 1 && !gemm::vector_ok(caps, pr, p["VWM"], true)) p["VWM"] /= 2;
  while (p["VWN"] > 1 && !gemm::vector_ok(caps, pr, p["VWN"], false)) p["VWN"] /= 2;
  if (p["ASYNC"] && !fam.check(p, caps, pr).empty()) p["STAGES"] = 2;
  if (p["ASYNC"] && !fam.check(p, caps, pr).empty()) p["ASYNC"] = 0;
  if (!fam.check(p, caps, pr).empty()) p["DB"] = 0;
  if (std::string why = fam.check(p, caps, pr); !why.empty()) {
    log_debug("gemm: the tiled kernel cannot run " + params_to_json(tuned) + " here (" + why + ")");
    return std::nullopt;
  }
  return p;
}

Params fit_direct(const Params& tuned, const Capabilities& caps, const Problem& pr) {
  const auto& fam = find_family("gemm_direct");
  Params p = fam.complete(tuned, caps);
  if (fam.check(p, caps, pr).empty()) return p;
  p = fam.defaults(caps);
  while (p["WGD"] > 8 && !fam.check(p, caps, pr).empty()) p["WGD"] /= 2;
  if (std::string why = fam.check(p, caps, pr); !why.empty())
    throw Error(Status::Unsupported, "gemm: no direct kernel configuration fits this device: " + why);
  return p;
}

thread_local const GemmForce* scoped_force = nullptr;

}  // namespace

Params shrink_direct(Params p, const Capabilities& caps, const Problem& pr) {
  const auto& fam = find_family("gemm_direct");
  const std::int64_t extent = std::max<std::int64_t>({pr.sizes.at(0), pr.sizes.at(1), 1});
  while (p["WGD"] > 8 && extent * 2 <= p["WGD"]) {
    Params q = p;
    q["WGD"] /= 2;
    while (q["MDIMCD"] > 1 && q["WGD"] % (q["MDIMCD"] * q["VWMD"])) q["MDIMCD"] /= 2;
    while (q["NDIMCD"] > 1 && q["WGD"] % (q["NDIMCD"] * q["VWND"])) q["NDIMCD"] /= 2;
    while (q["KWID"] > 1 && q["WGD"] % q["KWID"]) q["KWID"] /= 2;
    if (!fam.check(q, caps, pr).empty()) break;
    p = q;
  }
  return p;
}

GemmForceScope::GemmForceScope(const GemmForce& f) : previous_(scoped_force) { scoped_force = &f; }
GemmForceScope::~GemmForceScope() { scoped_force = previous_; }

Problem gemm_problem(const GemmCall& c) {
  Problem pr;
  pr.dtype = c.dtype;
  pr.sizes = {c.m, c.n, c.k, c.batch};
  pr.extra = {{"trans_a", c.trans_a}, {"trans_b", c.trans_b}, {"comp_half", c.comp_half}, {"list", c.list}};
  return pr;
}

std::string gemm_program_text(const std::string& source, Unary activation) {
  std::string text;
  if (activation != Unary::Copy)
    text += "#define GEMM_ACT(A) " + substitute(unary_expression(activation, false), {"A"}, {"act_p0", "act_p1"}) +
            "\n";
  text += "#line 1 \"gemm/gemm_common.cl\"\n" + std::string(kernel_source("gemm/gemm_common.cl")) + "\n#line 1 \"" +
          source + "\"\n" + std::string(kernel_source(source));
  return text;
}

Defines gemm_type_defines(const GemmCall& c) {
  switch (c.dtype) {
    case DType::F64:
      return {{"TYPE", "double"}, {"COMP", "double"}, {"EPI", "double"}, {"EPI_DOUBLE", "1"}, {"HALF_STORAGE", "0"}};
    case DType::F16:
      return {{"TYPE", "half"}, {"COMP", c.comp_half ? "half" : "float"}, {"EPI", "float"}, {"EPI_DOUBLE", "0"},
              {"HALF_STORAGE", "1"}};
    default:
      return {{"TYPE", "float"}, {"COMP", "float"}, {"EPI", "float"}, {"EPI_DOUBLE", "0"}, {"HALF_STORAGE", "0"}};
  }
}

Event run_gemm(const Queue& q, const GemmCall& c, const WaitList& wait, const GemmForce* force) {
  if (!force) force = scoped_force;
  const Capabilities& caps = q.device().caps();
  const Problem pr = gemm_problem(c);
  Buffer<std::uint8_t> table_buf;
  if (c.list) table_buf = upload_table(q, c);
  const MemImpl& table = c.list ? *table_buf.mem() : *c.c.mem;
  EventSpan span;

  // No product to compute (k == 0, or alpha == 0 everywhere): the direct
  // kernel applies the epilogue without reading A or B.
  bool product = c.k > 0 && (c.list ? std::any_of(c.alphas.begin(), c.alphas.end(), [](double x) { return x != 0; })
                                    : c.alpha != 0);
  const GemmPath path = force ? force->path : GemmPath::Auto;
  bool tiled = product && path != GemmPath::Direct;
  if (tiled && path == GemmPath::Auto) {
    const auto& routine = find_family("gemm_routine");
    const Params rp = routine.complete(force && force->routine ? *force->routine : params_for(q, routine, pr), caps);
    tiled = GemmRoutineFamily::use_tiled(rp, pr);
  }
  if (tiled) {
    const auto& fam = find_family("gemm_tiled");
    if (auto p = fit_tiled(force && force->tiled ? *force->tiled : params_for(q, fam, pr), caps, pr)) {
      run_tiled(q, c, *p, table, wait, span);
      return span.result();
    }
    if (path == GemmPath::Tiled) throw Error(Status::Unsupported, "gemm: the forced tiled parameters cannot run here");
  }
  const auto& fam = find_family("gemm_direct");
  const Params p = force && force->direct ? fit_direct(*force->direct, caps, pr)
                                          : shrink_direct(fit_direct(params_for(q, fam, pr), caps, pr), caps, pr);
  run_direct(q, c, p, table, wait, span);
  return span.result();
}

}  // namespace optune::detail
