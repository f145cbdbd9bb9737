// The GEMM routine: the shared argument list of the GEMM kernels, the
// problem a call poses, and the choice among the candidates
// (ops/gemm_candidates.hpp) by the database or the tuner's forced choice.
#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "kernels/families.hpp"
#include "ops/gemm_candidates.hpp"
#include "ops/launch_plan.hpp"
#include "ops/params.hpp"
#include "ops/tensor.hpp"
#include "runtime/scratch.hpp"

namespace optune::detail {

namespace {

using gemm_kernels::kMaxGridZ;

KernelArg ulong_arg(std::uint64_t v) { return KernelArg::scalar(v); }

// The kernels' flags argument (gemm_flags.cl).
std::uint32_t gemm_flags(const GemmCall& c, const bool (&lists)[3]) {
  std::uint32_t f = 0;
  if (lists[0]) f |= GEMM_A_LIST;
  if (lists[1]) f |= GEMM_B_LIST;
  if (lists[2]) f |= GEMM_C_LIST;
  if (c.list) f |= GEMM_AB_LIST;
  if (c.bias_mode == 1) f |= GEMM_BIAS_ROW;
  if (c.bias_mode == 2) f |= GEMM_BIAS_COL;
  if (c.trans_a) f |= GEMM_TRANS_A;
  if (c.trans_b) f |= GEMM_TRANS_B;
  if (c.swapped) f |= GEMM_TRANS_C | GEMM_LISTS_SWAPPED;
  return f;
}

// Host copies of list tables whose non-blocking upload may still be reading
// them (OpenCL reads a non-blocking write's host memory until it completes),
// each kept until its event completes; every upload drops the finished ones.
struct PendingTables {
  std::mutex mutex;
  std::vector<std::pair<Event, std::shared_ptr<std::vector<std::uint8_t>>>> items;
};
PendingTables& pending_tables() {
  static auto* p = new PendingTables;  // never destroyed: events may outlive static destruction
  return *p;
}

}  // namespace

Buffer<std::uint8_t> upload_list_table(const Queue& q, const GemmCall& c, std::size_t eb,
                                       const std::vector<double>& values, std::size_t slot) {
  const std::size_t batch = std::size_t(c.batch);
  auto host = std::make_shared<std::vector<std::uint8_t>>(batch * 24 + values.size() * eb);
  for (std::size_t i = 0; i < batch; ++i) {
    const std::uint64_t o[3] = {std::uint64_t(c.a_offsets[i]), std::uint64_t(c.b_offsets[i]),
                                std::uint64_t(c.c_offsets[i])};
    std::memcpy(&(*host)[i * 24], o, 24);
  }
  for (std::size_t e = 0; e < values.size(); ++e) {
    std::uint8_t* dst = &(*host)[batch * 24 + e * eb];
    if (eb == 8) std::memcpy(dst, &values[e], 8);
    else { const float f = float(values[e]); std::memcpy(dst, &f, 4); }
  }
  std::array<std::size_t, kScratchSlots> bytes{};
  bytes[slot] = host->size();
  ScratchLease s = lease_scratch(q, bytes);
  Buffer<std::uint8_t> b(s.slot[slot], 0, host->size());
  const Event written = q.write(b, std::span<const std::uint8_t>(*host));
  PendingTables& p = pending_tables();
  std::lock_guard lock(p.mutex);
  std::erase_if(p.items, [](const auto& item) { return item.first.complete(); });
  p.items.emplace_back(written, std::move(host));
  return b;
}

namespace {

// The real GEMM's table: (alpha, beta) pairs of the epilogue type, in scratch
// slot 5 (the in-order queue runs the write after the kernels before it,
// which may still read the previous table, and before the GEMM's).
Buffer<std::uint8_t> upload_table(const Queue& q, const GemmCall& c) {
  std::vector<double> values;
  for (std::size_t i = 0; i < std::size_t(c.batch); ++i) values.insert(values.end(), {c.alphas[i], c.betas[i]});
  return upload_list_table(q, c, c.dtype == DType::F64 ? 8 : 4, values, 5);
}

// The largest power of two up to 16 dividing the operand's offset, its
// leading dimension where it is stored as more than one line (`lines`: the
// stored rows; a single line's elements are contiguous and its leading
// dimension addresses nothing, as for a vector passed as a 1 x K matrix), its
// batch stride where there is more than one product, and listed offsets.
std::int64_t alignment(const GemmOperand& o, std::int64_t lines, std::int64_t batch,
                       const std::vector<std::int64_t>& list, bool use_list) {
  std::vector<std::int64_t> values{std::int64_t(o.offset)};
  if (lines > 1) values.push_back(o.ld);
  if (batch > 1) values.push_back(o.stride);
  if (use_list) values.insert(values.end(), list.begin(), list.end());
  return offset_alignment(values);
}

}  // namespace

KernelArg GemmLaunch::real(double v) const {
  return call.dtype == DType::F64 ? KernelArg::scalar(v) : KernelArg::scalar(float(v));
}

std::vector<KernelArg> GemmLaunch::operand_args(const GemmOperand& a, const GemmOperand& b, const GemmOperand& c,
                                                const bool (&lists)[3]) const {
  std::vector<KernelArg> args;
  for (const GemmOperand* o : {&a, &b, &c}) {
    args.push_back(KernelArg::buffer(*o->mem));
    args.insert(args.end(), {ulong_arg(o->offset), ulong_arg(std::uint64_t(o->ld)), ulong_arg(std::uint64_t(o->stride))});
  }
  const MemImpl& bias = call.bias ? *call.bias : *call.c.mem;
  args.insert(args.end(), {KernelArg::buffer(bias), ulong_arg(call.bias_offset), KernelArg::buffer(table),
                           ulong_arg(std::uint64_t(call.batch)), KernelArg::scalar(gemm_flags(call, lists))});
  return args;
}

std::vector<KernelArg> GemmLaunch::activation_args() const {
  const auto param = [&](std::size_t i) { return i < call.activation_params.size() ? call.activation_params[i] : 0.0; };
  return {real(param(0)), real(param(1))};
}

Event GemmLaunch::batched(KernelImpl& k, std::vector<KernelArg> args, std::vector<KernelArg> tail, Geometry g,
                          const WaitList& first_wait, std::int64_t per_product) const {
  const std::size_t z_slot = args.size();
  args.push_back(ulong_arg(0));
  args.insert(args.end(), tail.begin(), tail.end());
  const std::int64_t groups = call.batch * per_product;
  Event last;
  for (std::int64_t z0 = 0; z0 < groups; z0 += kMaxGridZ) {
    args[z_slot] = ulong_arg(std::uint64_t(z0));
    if (!g.own_z) g.global[2] = std::size_t(std::min(kMaxGridZ, groups - z0));
    last = launch_kernel(q, k, args, g, z0 == 0 ? first_wait : WaitList{});
    span.add(last);
  }
  return last;
}

namespace {

// Every form of GemmLaunch::in_place: A and B as given, listed or not; C
// the call's or (split K) the raw partial products' temporary.
Event launch_in_place(const GemmLaunch& l, KernelImpl& k, const Geometry& g, const std::vector<KernelArg>& after,
                      const GemmOperand& a, const GemmOperand& b, bool ab_lists, const WaitList& wait_for,
                      const GemmOperand& c, bool c_list, std::int64_t per_product = 1) {
  const GemmCall& call = l.call;
  std::vector<KernelArg> args{ulong_arg(std::uint64_t(call.m)), ulong_arg(std::uint64_t(call.n)),
                              ulong_arg(std::uint64_t(call.k)), l.real(call.alpha), l.real(call.beta)};
  const bool lists[3] = {ab_lists, ab_lists, c_list};
  const std::vector<KernelArg> operands = l.operand_args(a, b, c, lists);
  args.insert(args.end(), operands.begin(), operands.end());
  std::vector<KernelArg> tail = l.activation_args();
  tail.insert(tail.end(), after.begin(), after.end());
  return l.batched(k, args, tail, g, wait_for, per_product);
}

}  // namespace

Event GemmLaunch::in_place(KernelImpl& k, const Geometry& g, const std::vector<KernelArg>& after) const {
  return launch_in_place(*this, k, g, after, call.a, call.b, call.list, wait, call.c, call.list);
}

Event GemmLaunch::in_place(KernelImpl& k, const Geometry& g, const std::vector<KernelArg>& after,
                           const GemmOperand& a, const GemmOperand& b, const WaitList& wait_for) const {
  return launch_in_place(*this, k, g, after, a, b, false, wait_for, call.c, call.list);
}

Event GemmLaunch::in_place_split(KernelImpl& k, const Geometry& g, const std::shared_ptr<MemImpl>& raw, std::int64_t splits,
                                 std::int64_t kspan, const std::vector<KernelArg>& more) const {
  const GemmOperand out{raw, 0, call.n, call.m * call.n};
  std::vector<KernelArg> after{ulong_arg(std::uint64_t(splits)), ulong_arg(std::uint64_t(kspan))};
  after.insert(after.end(), more.begin(), more.end());
  launch_in_place(*this, k, g, after, call.a, call.b, false, wait, out, false, splits);
  return copy_back(out, call.m, call.n, splits);
}

Event GemmLaunch::in_place_fused(KernelImpl& k, const Geometry& g, const MemImpl& part, const MemImpl& tickets,
                                 std::int64_t splits, std::int64_t kspan) const {
  return launch_in_place(*this, k, g,
                         {ulong_arg(std::uint64_t(splits)), ulong_arg(std::uint64_t(kspan)), KernelArg::buffer(part),
                          KernelArg::buffer(tickets)},
                         call.a, call.b, false, wait, call.c, call.list, splits);
}

Event GemmLaunch::copy_back(const GemmOperand& raw, std::int64_t rows, std::int64_t cols, std::int64_t splits) const {
  const std::size_t tile = gemm_helper_tile(q.device().caps());
  KernelPtr k = compile_kernel(q, gemm_kernels::helper_program(problem, "gemm_copy_back", tile));
  const bool lists[3] = {false, false, call.list};
  std::vector<KernelArg> args{ulong_arg(std::uint64_t(call.m)), ulong_arg(std::uint64_t(call.n)), real(call.alpha),
                              real(call.beta),
                              KernelArg::buffer(*raw.mem),
                              ulong_arg(std::uint64_t(cols)),
                              ulong_arg(std::uint64_t(rows * cols)),
                              ulong_arg(std::uint64_t(splits))};
  // C, bias, table, batch and flags as every GEMM kernel takes them.
  const std::vector<KernelArg> operands = operand_args(raw, raw, call.c, lists);
  args.insert(args.end(), operands.begin() + 8, operands.end());
  Geometry g;
  g.dims = 3;
  g.local[0] = g.local[1] = tile;
  g.global[0] = round_up(std::size_t(call.n), tile);
  g.global[1] = round_up(std::size_t(call.m), tile);
  return batched(*k, args, activation_args(), g, {});
}

std::size_t gemm_helper_tile(const Capabilities& caps) { return caps.max_work_group_size >= 256 ? 16 : 8; }

Event GemmLaunch::pack(const GemmOperand& src, int which, bool transpose, std::int64_t rows, std::int64_t cols,
                       std::int64_t rows_p, std::int64_t cols_p, const MemImpl& dst, const WaitList& wait_for,
                       bool tf32_round) const {
  const std::size_t tile = gemm_helper_tile(q.device().caps());
  KernelPtr k = compile_kernel(
      q, gemm_kernels::helper_program(problem, transpose ? "gemm_pad_transpose" : "gemm_pad", tile, tf32_round));
  std::vector<KernelArg> args{ulong_arg(std::uint64_t(rows)),   ulong_arg(std::uint64_t(cols)),
                              ulong_arg(std::uint64_t(rows_p)), ulong_arg(std::uint64_t(cols_p)),
                              KernelArg::buffer(*src.mem),      ulong_arg(src.offset),
                              ulong_arg(std::uint64_t(src.ld)), ulong_arg(std::uint64_t(src.stride)),
                              KernelArg::buffer(dst),           KernelArg::buffer(table),
                              KernelArg::scalar(std::uint32_t(call.list)), KernelArg::scalar(std::uint32_t(which))};
  Geometry g;
  g.dims = 3;
  g.local[0] = g.local[1] = tile;
  // gemm_pad: x along the destination's columns; the transposing kernel: x
  // along its rows (the source's contiguous dimension) and y along columns.
  g.global[0] = round_up(std::size_t(transpose ? rows_p : cols_p), tile);
  g.global[1] = round_up(std::size_t(transpose ? cols_p : rows_p), tile);
  return batched(*k, args, {}, g, wait_for);
}

const std::vector<const GemmCandidate*>& vendor_matrix_candidates() {
  static const std::vector<const GemmCandidate*> none;  // no kernel written yet
  return none;
}

const std::vector<const GemmCandidate*>& gemm_candidates() {
  static const std::vector<const GemmCandidate*> order = [] {
    std::vector<const GemmCandidate*> o{&thin_candidate(), &wgmma_candidate(), &mma_candidate()};
    o.insert(o.end(), vendor_matrix_candidates().begin(), vendor_matrix_candidates().end());
    o.insert(o.end(), {&tiled_candidate(), &direct_candidate()});
    return o;
  }();
  return order;
}

const GemmCandidate& gemm_candidate(const std::string& name) {
  std::string names;
  for (const GemmCandidate* c : gemm_candidates()) {
    if (c->name() == name) return *c;
    names += (names.empty() ? "" : ", ") + c->name();
  }
  throw Error(Status::NotFound, "gemm: no candidate kernel '" + name + "' (candidates: " + names + ")");
}

GemmProblem gemm_problem(const GemmCall& c) {
  GemmProblem pr;
  pr.dtype = c.dtype;
  pr.c_dtype = c.c_dtype;
  pr.comp_half = c.comp_half;
  pr.tf32 = c.tf32;
  pr.trans_a = c.trans_a, pr.trans_b = c.trans_b;
  pr.m = c.m, pr.n = c.n, pr.k = c.k, pr.batch = c.batch;
  pr.list = c.list;
  pr.activation = c.activation;
  pr.align_a = alignment(c.a, c.trans_a ? c.k : c.m, c.batch, c.a_offsets, c.list);
  pr.align_b = alignment(c.b, c.trans_b ? c.n : c.k, c.batch, c.b_offsets, c.list);
  pr.align_c = alignment(c.c, c.swapped ? c.n : c.m, c.batch, c.c_offsets, c.list);
  pr.lda = c.a.ld, pr.ldb = c.b.ld;
  pr.shared_a = !c.list && c.batch > 1 && c.a.stride == 0;
  pr.shared_b = !c.list && c.batch > 1 && c.b.stride == 0;
  return pr;
}

namespace {

// Every field of the problem that a choice depends on.
std::string choice_key(const GemmProblem& pr, bool product) {
  std::string key = "gemm-choice";
  for (std::int64_t v : {std::int64_t(pr.dtype), std::int64_t(pr.c_dtype), std::int64_t(pr.comp_half),
                         std::int64_t(pr.tf32), std::int64_t(pr.trans_a), std::int64_t(pr.trans_b), pr.m, pr.n, pr.k,
                         pr.batch, std::int64_t(pr.list), std::int64_t(pr.activation), pr.align_a, pr.align_b,
                         pr.align_c, pr.lda, pr.ldb, std::int64_t(pr.shared_a), std::int64_t(pr.shared_b),
                         std::int64_t(product)}) {
    key += ',';
    key += std::to_string(v);
  }
  return key;
}

// A remembered choice (launch_plan.hpp's `remembered`) with the lookups it
// made.
struct RememberedChoice {
  GemmChoice choice;
  std::vector<LookupRecord> lookups;
  std::uint64_t generation = 0;
};

GemmChoice choose_fresh(const Queue& q, const GemmProblem& pr, bool product, const GemmForce* force);

}  // namespace

GemmChoice choose_gemm(const Queue& q, const GemmProblem& pr, bool product, const GemmForce* force) {
  if (force) return choose_fresh(q, pr, product, force);
  return remembered<RememberedChoice>(q, choice_key(pr, product), true, [&] {
           // The lookups choosing makes, kept apart from the thread's earlier
           // ones and noted again after them.
           std::vector<LookupRecord> before = take_lookups();
           RememberedChoice r;
           r.choice = choose_fresh(q, pr, product, nullptr);
           r.lookups = take_lookups();
           for (const LookupRecord& l : before) note_lookup(l);
           for (const LookupRecord& l : r.lookups) note_lookup(l);
           return r;
         })
      ->choice;
}

namespace {

GemmChoice choose_fresh(const Queue& q, const GemmProblem& pr, bool product, const GemmForce* force) {
  const Capabilities& caps = q.device().caps();
  const auto fitted = [&](const GemmCandidate& cand) -> std::optional<Params> {
    const Params* forced = force ? force->find(cand.family().name()) : nullptr;
    Params p = forced ? *forced : params_for(q, cand.family(), pr);
    if (force) p = force->with_overlay(cand.family().name(), std::move(p));
    return cand.fit(p, forced != nullptr, caps, pr);
  };
  // No product to compute (k == 0, or alpha == 0 everywhere): the direct
  // kernel applies the epilogue without reading A or B.
  if (!product) return {&direct_candidate(), *fitted(direct_candidate())};

  if (force && !force->candidate.empty()) {
    const GemmCandidate& cand = gemm_candidate(force->candidate);
    if (std::string why = cand.applies(pr, caps); !why.empty())
      throw Error(Status::Unsupported, "gemm: the forced " + cand.name() + " kernel does not apply: " + why);
    if (auto p = fitted(cand)) return {&cand, *p};
    throw Error(Status::Unsupported, "gemm: the forced " + cand.name() + " parameters cannot run here");
  }
  const GemmRoutineFamily& routine = families::gemm_routine();
  const Params* forced_routine = force ? force->find(routine.name()) : nullptr;
  Params rp = routine.complete(forced_routine ? *forced_routine : params_for(q, routine, pr), caps);
  if (force) rp = force->with_overlay(routine.name(), std::move(rp));
  // KERNEL names a candidate: it runs where it applies and its parameters
  // fit; else (and with KERNEL 0) the first candidate in order that prefers
  // the problem, applies and fits. THIN_FIRST puts the thin kernel, where
  // THIN_MIN and THIN_MAX prefer it, ahead of the named one (a bucket's
  // thinnest products on it, its thicker ones on the named tile).
  if (const std::int64_t named = rp.at("KERNEL")) {
    const GemmCandidate& thin = thin_candidate();
    if (rp.at("THIN_FIRST") && named != thin.id() && thin.preferred(pr, rp) && thin.applies(pr, caps).empty())
      if (auto p = fitted(thin)) return {&thin, *p};
    for (const GemmCandidate* cand : gemm_candidates()) {
      if (cand->id() != named || !cand->applies(pr, caps).empty()) continue;
      if (auto p = fitted(*cand)) return {cand, *p};
    }
  }
  for (const GemmCandidate* cand : gemm_candidates()) {
    if (!cand->preferred(pr, rp) || !cand->applies(pr, caps).empty()) continue;
    if (auto p = fitted(*cand)) return {cand, *p};
  }
  return {&direct_candidate(), *fitted(direct_candidate())};  // applies to every problem
}

}  // namespace

Event run_gemm(const Queue& q, const GemmCall& c, const WaitList& wait, const GemmForce* force) {
  if (!force) force = GemmForceScope::current();
  const GemmProblem pr = gemm_problem(c);
  const bool product = c.k > 0 && (c.list ? std::any_of(c.alphas.begin(), c.alphas.end(), [](double x) { return x != 0; })
                                          : c.alpha != 0);
  const GemmChoice choice = choose_gemm(q, pr, product, force);
  Buffer<std::uint8_t> table_buf;
  if (c.list) table_buf = upload_table(q, c);
  EventSpan span;
  const GemmLaunch launch{q, c, pr, c.list ? *table_buf.mem() : *c.c.mem, wait, span};
  choice.candidate->run(launch, choice.params);
  return span.result();
}

}  // namespace optune::detail
