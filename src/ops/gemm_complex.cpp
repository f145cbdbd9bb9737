// Complex GEMM through the real GEMM (ops/gemm_complex.hpp): the packing and
// scaling passes of gemm_complex.cl, then one real product.
#include "ops/gemm_complex.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

#include "kernels/descriptor.hpp"
#include "ops/gemm_candidates.hpp"
#include "runtime/event_span.hpp"
#include "runtime/scratch.hpp"

namespace optune::detail {

namespace {

constexpr std::uint32_t kTrans = 1, kConj = 2, kList = 4;  // gemm_complex.cl's CGEMM_* flags
using gemm_kernels::kMaxGridZ;

DType real_of(DType complex_type) { return complex_type == DType::C64 ? DType::F64 : DType::F32; }

KernelPtr complex_kernel(const Queue& q, DType real, const char* entry, std::size_t tile) {
  const std::string source = "gemm/gemm_complex.cl";
  const Defines d{{"REAL", c_type_name(real)},
                  {"REAL_DOUBLE", real == DType::F64 ? "1" : "0"},
                  {"TILE", std::to_string(tile)}};
  return compile_kernel(q, KernelSource{source, embedded_kernel_text(source), d, entry});
}

// The list-mode table: 3 offsets per product (a, b, c, complex elements),
// then alpha (re, im) and beta (re, im) per product in the part type, in
// scratch slot 6 (the real GEMM inside uses slot 5 for its own; the in-order
// queue runs a later table's write after the passes that read this one).
Buffer<std::uint8_t> upload_table(const Queue& q, const ComplexGemm& z) {
  std::vector<double> values;
  for (std::size_t i = 0; i < std::size_t(z.call.batch); ++i)
    values.insert(values.end(), {z.alphas[i].real(), z.alphas[i].imag(), z.betas[i].real(), z.betas[i].imag()});
  return upload_list_table(q, z.call, z.call.dtype == DType::C64 ? 8 : 4, values, 6);
}

// A listed product's distinct packed operands: products that read the same
// A share its packed copy, and those that read the same B with the same
// alpha share its expansion (syrk's and herk's listed blocks reuse one block
// row of A for a whole row of products: one expansion per product would
// write batch x 4 k n elements, 8 GiB for c32 syrk at 4096). The packing
// passes run over `packs`, a ComplexGemm whose product j is the j-th
// distinct A and the j-th distinct (B, alpha); a_of / b_of map each product
// to its distinct operands.
struct Distinct {
  ComplexGemm packs;
  std::int64_t a_count = 0, b_count = 0;
  std::vector<std::int64_t> a_of, b_of;
};

Distinct distinct_operands(const ComplexGemm& z) {
  Distinct d;
  std::map<std::int64_t, std::int64_t> a_seen;
  std::map<std::tuple<std::int64_t, double, double>, std::int64_t> b_seen;
  std::vector<std::int64_t> a_off, b_off;
  std::vector<std::complex<double>> b_alpha;
  for (std::size_t i = 0; i < std::size_t(z.call.batch); ++i) {
    const auto [ai, a_new] = a_seen.try_emplace(z.call.a_offsets[i], std::int64_t(a_off.size()));
    if (a_new) a_off.push_back(z.call.a_offsets[i]);
    d.a_of.push_back(ai->second);
    const std::complex<double> alpha = z.alphas[i];
    const auto [bi, b_new] =
        b_seen.try_emplace({z.call.b_offsets[i], alpha.real(), alpha.imag()}, std::int64_t(b_off.size()));
    if (b_new) {
      b_off.push_back(z.call.b_offsets[i]);
      b_alpha.push_back(alpha);
    }
    d.b_of.push_back(bi->second);
  }
  d.a_count = std::int64_t(a_off.size());
  d.b_count = std::int64_t(b_off.size());
  const std::size_t rows = std::max(a_off.size(), b_off.size());
  a_off.resize(rows, 0);
  b_off.resize(rows, 0);
  b_alpha.resize(rows, 0);
  d.packs.call = z.call;
  d.packs.call.batch = std::int64_t(rows);
  d.packs.call.a_offsets = std::move(a_off);
  d.packs.call.b_offsets = std::move(b_off);
  d.packs.call.c_offsets.assign(rows, 0);
  d.packs.alphas = std::move(b_alpha);
  d.packs.betas.assign(rows, 0);
  return d;
}

// One pass over `batch` products of rows x cols (complex) elements, in
// chunks of the grid's z limit; `args` end where z0 goes.
struct Passes {
  const Queue& q;
  DType real;
  std::size_t tile;
  EventSpan& span;

  KernelArg part(double v) const { return real == DType::F64 ? KernelArg::scalar(v) : KernelArg::scalar(float(v)); }

  Event run(const char* entry, std::vector<KernelArg> args, std::int64_t rows, std::int64_t cols,
            std::int64_t batch, const WaitList& wait) const {
    KernelPtr k = complex_kernel(q, real, entry, tile);
    Geometry g;
    g.dims = 3;
    g.local[0] = g.local[1] = tile;
    g.global[0] = round_up(std::size_t(cols), tile);
    g.global[1] = round_up(std::size_t(rows), tile);
    const std::size_t z_slot = args.size();
    args.push_back(KernelArg::scalar(std::uint64_t(0)));
    Event last;
    for (std::int64_t z0 = 0; z0 < batch; z0 += kMaxGridZ) {
      args[z_slot] = KernelArg::scalar(std::uint64_t(z0));
      g.global[2] = std::size_t(std::min(kMaxGridZ, batch - z0));
      last = launch_kernel(q, *k, args, g, z0 == 0 ? wait : WaitList{});
      span.add(last);
    }
    return last;
  }
};

KernelArg u64(std::int64_t v) { return KernelArg::scalar(std::uint64_t(v)); }

std::size_t checked_bytes(std::initializer_list<std::int64_t> factors) {
  std::size_t b = 1;
  for (std::int64_t f : factors)
    if (__builtin_mul_overflow(b, std::size_t(f), &b))
      throw Error(Status::Overflow, "gemm: the complex product's scratch exceeds the address space");
  return b;
}

}  // namespace

Event run_complex_gemm(const Queue& q, const ComplexGemm& z, const WaitList& wait) {
  const GemmCall& c = z.call;
  const DType real = real_of(c.dtype);
  const std::size_t es = dtype_size(real);
  EventSpan span;
  const Passes passes{q, real, gemm_helper_tile(q.device().caps()), span};
  const std::uint32_t list = c.list ? kList : 0;

  const auto nonzero = [](std::complex<double> v) { return v != std::complex<double>(0); };
  const bool product = c.k > 0 && (c.list ? std::any_of(z.alphas.begin(), z.alphas.end(), nonzero) : nonzero(z.alpha));
  const bool beta_real = c.list ? std::all_of(z.betas.begin(), z.betas.end(),
                                              [](std::complex<double> v) { return v.imag() == 0; })
                                : z.beta.imag() == 0;
  WaitList pending = wait;
  // C = beta C first where the real product cannot apply beta (an imaginary
  // part), or where there is no product at all.
  if (!product || !beta_real) {
    const Buffer<std::uint8_t> table = c.list ? upload_table(q, z) : Buffer<std::uint8_t>();
    const MemImpl& table_mem = c.list ? *table.mem() : *c.c.mem;
    pending = {passes.run("cgemm_scale_c",
                          {u64(c.m), u64(c.n), KernelArg::buffer(*c.c.mem), u64(std::int64_t(c.c.offset)), u64(c.c.ld),
                           u64(c.c.stride), KernelArg::scalar(list), KernelArg::buffer(table_mem), u64(c.batch),
                           passes.part(z.beta.real()), passes.part(z.beta.imag())},
                          c.m, c.n, c.batch, pending)};
    if (!product) return span.result();
  }

  // Scratch (slot 3): op(A) packed (m x k complex per product) where it is
  // transposed or conjugated, then alpha op(B) expanded (2k x 2n real).
  const bool pack_a = c.trans_a || z.conj_a;
  Distinct d;
  Buffer<std::uint8_t> table;
  if (c.list) {
    d = distinct_operands(z);
    table = upload_table(q, d.packs);
  }
  const MemImpl& table_mem = c.list ? *table.mem() : *c.c.mem;
  const std::int64_t a_batch = c.list ? d.a_count : (c.a.stride == 0 ? 1 : c.batch);
  const std::int64_t b_batch = c.list ? d.b_count : (c.b.stride == 0 ? 1 : c.batch);
  const std::size_t a_elems = pack_a ? checked_bytes({2, c.m, c.k, a_batch}) : 0;
  const std::size_t b_at = round_up(a_elems, 64);  // B'' starts 256 bytes (f32) or more in
  const std::size_t b_elems = checked_bytes({4, c.k, c.n, b_batch});
  ScratchLease s = lease_scratch(q, {0, 0, 0, checked_bytes({std::int64_t(b_at + b_elems), std::int64_t(es)})});
  const MemImpl& scratch = *s.slot[3];

  GemmCall r;
  r.dtype = r.c_dtype = real;
  r.m = c.m, r.n = 2 * c.n, r.k = 2 * c.k, r.batch = c.batch;
  r.list = c.list;
  r.a = GemmOperand{c.a.mem, 2 * c.a.offset, 2 * c.a.ld, 2 * c.a.stride};
  r.c = GemmOperand{c.c.mem, 2 * c.c.offset, 2 * c.c.ld, 2 * c.c.stride};
  WaitList packed;
  if (pack_a) {
    const std::uint32_t flags = (c.trans_a ? kTrans : 0) | (z.conj_a ? kConj : 0) | list;
    const std::int64_t stored_ld = c.a.ld;
    packed.push_back(passes.run("cgemm_pack_a",
                                {u64(c.m), u64(c.k), KernelArg::buffer(*c.a.mem), u64(std::int64_t(c.a.offset)),
                                 u64(stored_ld), u64(c.a.stride), KernelArg::buffer(scratch), KernelArg::scalar(flags),
                                 KernelArg::buffer(table_mem)},
                                c.m, c.k, a_batch, pending));
    r.a = GemmOperand{s.slot[3], 0, 2 * c.k, a_batch > 1 ? 2 * c.m * c.k : 0};
  }
  const std::uint32_t b_flags = (c.trans_b ? kTrans : 0) | (z.conj_b ? kConj : 0) | list;
  packed.push_back(passes.run("cgemm_pack_b",
                              {u64(c.k), u64(c.n), KernelArg::buffer(*c.b.mem), u64(std::int64_t(c.b.offset)),
                               u64(c.b.ld), u64(c.b.stride), KernelArg::buffer(scratch), u64(std::int64_t(b_at)),
                               KernelArg::scalar(b_flags),
                               KernelArg::buffer(table_mem), u64(c.list ? d.packs.call.batch : c.batch),
                               passes.part(z.alpha.real()),
                               passes.part(z.alpha.imag())},
                              c.k, c.n, b_batch, pending));
  r.b = GemmOperand{s.slot[3], b_at, 2 * c.n, b_batch > 1 ? 4 * c.k * c.n : 0};

  if (c.list) {
    for (std::int64_t i = 0; i < c.batch; ++i) {
      const std::size_t at = std::size_t(i);
      r.a_offsets.push_back(pack_a ? d.a_of[at] * 2 * c.m * c.k : 2 * c.a_offsets[at]);
      r.b_offsets.push_back(d.b_of[at] * 4 * c.k * c.n);
      r.c_offsets.push_back(2 * c.c_offsets[std::size_t(i)]);
      // A product whose alpha is 0 adds nothing (its B'' is zeros), as a
      // real list's would.
      r.alphas.push_back(nonzero(z.alphas[std::size_t(i)]) ? 1 : 0);
      r.betas.push_back(beta_real ? z.betas[std::size_t(i)].real() : 1);
    }
  } else {
    r.alpha = 1;
    r.beta = beta_real ? z.beta.real() : 1;
  }
  span.add(run_gemm(q, r, packed));
  return span.result();
}

}  // namespace optune::detail
