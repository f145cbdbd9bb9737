// blas2_ger: the blas2 program's dense ger, geru and gerc (blas2_ger, by
// packs of VW, complex types with VW 1; blas2_ger_pairs, complex ones as
// pairs of reals), after blas2_dense.cl, whose pack macros they use.
//
// check-prepend: blas/blas_storage.cl blas/blas2_defs.cl blas/blas2_dense.cl
// check-variant: -DTYPE=float -DREAL=float -DVW=4
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1
// check-variant: -DHALF=1 -DVW=4
// check-variant: -DHALF=1 -DVW=1
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1 -DGER_LOADS=4
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1 -DCPW=2
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DCPW=2
// check-variant-opencl: -DTYPE=double -DREAL=double -DF64=1 -DVW=4
// check-variant-opencl: -DTYPE=float2 -DREAL=float -DCOMPLEX=1 -DCPW=4

// ger, geru, gerc in dense storage: a work-item owns a pack of VW elements
// along the contiguous direction e and walks rc columns f of its group's
// stripe (groups of the second dimension rc apart), the e side's factor held
// in registers: c1(u_i) when e = i (column-major), a1 c2(v_j) and its skip
// test when e = j (F_SWAPIJ). A(i, j) += c1(u_i) (a1 c2(v_j)) as blas2_rank
// computes it, skipped (not written) where v_j = 0.
// One loaded pack of column fc updated and stored (not where v_j = 0).
// Each lane's update is a select, not a conditional assignment: PoCL 3.1
// vectorised this form across work-items and not the other (f32 ger 2048^2
// on a 2-core EPYC 4.5 -> 1.1-1.3 ms).
#define GER_PACK(pk, fc)                                                                 \
  {                                                                                      \
    const TYPE vj_ = swap ? ZERO : GET(v, vb, incv, fc);                                 \
    if (swap || !ISZERO(vj_)) {                                                          \
      const TYPE ff_ = swap ? CONJ_IF(GET(u, ub, incu, fc), c1) : MUL(a1, CONJ_IF(vj_, c2)); \
      TYPE l_[VW];                                                                       \
      OPTUNE_VUNPACK(VW, pk, l_);                                                        \
      for (int k = 0; k < VW; ++k) {                                                     \
        const TYPE n_ = swap ? l_[k] + MUL(ff_, fe[k]) : l_[k] + MUL(fe[k], ff_);        \
        l_[k] = skip[k] ? l_[k] : n_;                                                    \
      }                                                                                  \
      PSTORE(OPTUNE_VPACK(TYPE, VW, l_), a, (long)ab + e0 * se + (fc) * sf);             \
    }                                                                                    \
  }

// Columns whose elements a VW 1 work-item loads before it updates any (each
// update's store would otherwise hold the next load behind it).
#ifndef GER_LOADS
#define GER_LOADS 8
#endif

// ger's flags and sides (e contiguous, f across), and the work-item's pack:
// its first element e0 along e (packs of `pack`) and the nl of them inside A.
#define GER_SIDES(pack)                                                                  \
  const bool swap = (flags & F_SWAPIJ) != 0, vec = (flags & F_VEC) != 0;                 \
  const bool c1 = (flags & F_C1) != 0, c2 = (flags & F_C2) != 0;                         \
  const long ne = swap ? (long)cols : (long)rows, nf = swap ? (long)rows : (long)cols;   \
  const long se = swap ? sj : si, sf = swap ? si : sj;                                   \
  const long e0 = (long)get_global_id(0) * (pack);                                       \
  if (e0 >= ne) return;                                                                  \
  const int nl = ne - e0 < (pack) ? (int)(ne - e0) : (pack);

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_ger(const ulong rows, const ulong cols, __global ST* a, const ulong ab, const long si, const long sj,
               __global const ST* u, const ulong ub, const long incu, __global const ST* v, const ulong vb,
               const long incv, const TYPE a1, const int flags, const uint rc) {
  GER_SIDES(VW)
  TYPE fe[VW];
  bool skip[VW];
  for (int k = 0; k < VW; ++k) {
    skip[k] = k >= nl;
    fe[k] = ZERO;
    if (k >= nl) continue;
    if (swap) {
      const TYPE vj = GET(v, vb, incv, e0 + k);
      skip[k] = ISZERO(vj);
      fe[k] = MUL(a1, CONJ_IF(vj, c2));
    } else {
      fe[k] = CONJ_IF(GET(u, ub, incu, e0 + k), c1);
    }
  }
  (void)c1;
  (void)c2;
  const long stride = (long)get_num_groups(1) * (long)rc;
  // Whole packs, one access each.
  const bool whole = vec && nl == VW;
  for (long f0 = (long)get_group_id(1) * (long)rc; f0 < nf; f0 += stride) {
    const long f1 = f0 + (long)rc < nf ? f0 + (long)rc : nf;
    long f = f0;
    // Whole packs four columns at a time: the four loads issued before the
    // stores (A is read and written through one pointer, so the compiler
    // would not move a load above an earlier store). A skipped column's pack
    // is read, never written.
#if VW > 1
    if (whole) {
      for (; f + 3 < f1; f += 4) {
        const VT p0 = PLOAD(a, (long)ab + e0 * se + f * sf);
        const VT p1 = PLOAD(a, (long)ab + e0 * se + (f + 1) * sf);
        const VT p2 = PLOAD(a, (long)ab + e0 * se + (f + 2) * sf);
        const VT p3 = PLOAD(a, (long)ab + e0 * se + (f + 3) * sf);
        GER_PACK(p0, f)
        GER_PACK(p1, f + 1)
        GER_PACK(p2, f + 2)
        GER_PACK(p3, f + 3)
      }
    }
#elif OPTUNE_BACKEND_CUDA
    // VW 1 (complex elements, or packs the host could not align), CUDA:
    // GER_LOADS columns' elements loaded, in an array, before any is updated.
    // OpenCL compiles neither this loop nor runs the complex form of the
    // column loop below (src/ops/blas2.cpp sends complex ger to blas2_rank
    // there): PoCL 3's LLVM 15 crashed in LICM on this loop at the program's
    // build and on the complex column loop at a launch, and NVIDIA's OpenCL
    // compiler aborted on this loop ("Unchecked Expected<T> contained
    // error"), either failing every blas2 routine of the type.
    for (; f + GER_LOADS - 1 < f1; f += GER_LOADS) {
      VT p_[GER_LOADS];
#pragma unroll
      for (int q = 0; q < GER_LOADS; ++q) p_[q] = PLOAD(a, (long)ab + e0 * se + (f + q) * sf);
#pragma unroll
      for (int q = 0; q < GER_LOADS; ++q) GER_PACK(p_[q], f + q)
    }
#endif
    for (; f < f1; ++f) {
      TYPE ff;
      if (swap) {
        ff = CONJ_IF(GET(u, ub, incu, f), c1);
      } else {
        const TYPE vj = GET(v, vb, incv, f);
        if (ISZERO(vj)) continue;
        ff = MUL(a1, CONJ_IF(vj, c2));
      }
      const long at = (long)ab + e0 * se + f * sf;
      for (int k = 0; k < nl; ++k)
        if (!skip[k]) STE(a, at + k * se, LDE(a, at + k * se) + (swap ? MUL(ff, fe[k]) : MUL(fe[k], ff)));
    }
  }
}

// ---- complex ger as pairs of reals (OpenCL, blas2 CPAIRS) ----
//
// geru / gerc in dense storage where the complex element types' loops cannot
// run (blas2_ger above says why: PoCL's LLVM 15 crashed on them, NVIDIA's
// OpenCL compiler aborted): A, u and v read as REAL arrays, a work-item's
// CPW elements along the contiguous direction e as one pack of 2 CPW reals,
// and each complex product written out in reals. Lane k's factor fe_k (u_i,
// or a1 c2(v_j) with F_SWAPIJ) and a column's factor g (a1 c2(v_j), or
// c1(u_i)) give A's real part += fe.re g.re - fe.im g.im and its imaginary
// part += fe.re g.im + fe.im g.re, as MUL computes them. A column whose v_j
// is 0 is skipped (not written); with F_SWAPIJ a lane whose v_j is 0 keeps
// its loaded value (a select, as blas2_ger's lanes). Only compiled where the
// host chose it (CPW > 0: CPAIRS elements a pack, 2 CPAIRS reals), and not
// on CUDA, where fit keeps CPAIRS 0 (blas2_ger's VW 1 loop serves complex
// ger there) and the prelude's double4 has no arithmetic. RW, RVT and
// pairs_element: blas2_dense.cl's pairs of reals.
#if COMPLEX && CPW > 0 && !OPTUNE_BACKEND_CUDA
// Column fc's factor (gr, gi): c1(u_i) with F_SWAPIJ, else a1 c2(v_j), a
// column whose v_j is 0 skipped (continue).
#define PAIRS_FACTOR(fc)                                                                                    \
  REAL yr_, yi_;                                                                                            \
  pairs_element(swap ? ur : vr, (long)(swap ? ub : vb), swap ? incu : incv, fc, swap ? c1 : c2, &yr_, &yi_); \
  if (!swap && yr_ == (REAL)0 && yi_ == (REAL)0) continue;                                                  \
  const REAL gr = swap ? yr_ : a1.x * yr_ - a1.y * yi_, gi = swap ? yi_ : a1.x * yi_ + a1.y * yr_;
// A loaded whole pack updated by (gr, gi) and stored at real `at`: as vectors
// where no lane can be held (columns contiguous: a skipped column is skipped
// whole), lane by lane with the select otherwise.
#define PAIRS_UPDATE(pk, at)                                      \
  if (!swap) {                                                    \
    OPTUNE_GSTORE(REAL, RW, pk + (fav * gr + fbv * gi), (at) / RW, ar); \
  } else {                                                        \
    REAL l_[RW];                                                  \
    OPTUNE_VUNPACK(RW, pk, l_);                                   \
    for (int c = 0; c < RW; ++c) {                                \
      const REAL n_ = l_[c] + (fa[c] * gr + fb[c] * gi);          \
      l_[c] = held[c] ? l_[c] : n_;                               \
    }                                                             \
    OPTUNE_GSTORE(REAL, RW, OPTUNE_VPACK(REAL, RW, l_), (at) / RW, ar); \
  }
// One of the four loaded packs: a one-pass loop, whose `continue` (a column
// whose v_j is 0) skips the pack unwritten.
#define PAIRS_PACK(pk, fc, at)   \
  do {                           \
    PAIRS_FACTOR(fc)             \
    PAIRS_UPDATE(pk, at)         \
  } while (0);

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_ger_pairs(const ulong rows, const ulong cols, __global ST* a, const ulong ab, const long si, const long sj,
                     __global const ST* u, const ulong ub, const long incu, __global const ST* v, const ulong vb,
                     const long incv, const TYPE a1, const int flags, const uint rc) {
  GER_SIDES(CPW)
  __global REAL* ar = (__global REAL*)a;
  __global const REAL* ur = (__global const REAL*)u;
  __global const REAL* vr = (__global const REAL*)v;
  // Component c of the pack (lane c / 2, real part where c is even) takes
  // fa[c] g.re + fb[c] g.im: (fe.re, -fe.im) for a real part, (fe.im, fe.re)
  // for an imaginary one.
  REAL fa[RW], fb[RW];
  bool held[RW];
  for (int k = 0; k < CPW; ++k) {
    REAL fr = (REAL)0, fi = (REAL)0;
    bool skip = k >= nl;
    if (!skip) {
      REAL xr, xi;
      pairs_element(swap ? vr : ur, (long)(swap ? vb : ub), swap ? incv : incu, e0 + k, swap ? c2 : c1, &xr, &xi);
      if (swap) {
        skip = xr == (REAL)0 && xi == (REAL)0;
        fr = a1.x * xr - a1.y * xi, fi = a1.x * xi + a1.y * xr;
      } else {
        fr = xr, fi = xi;
      }
    }
    fa[2 * k] = fr, fb[2 * k] = -fi;
    fa[2 * k + 1] = fi, fb[2 * k + 1] = fr;
    held[2 * k] = held[2 * k + 1] = skip;
  }
  const RVT fav = OPTUNE_VPACK(REAL, RW, fa), fbv = OPTUNE_VPACK(REAL, RW, fb);
  const long stride = (long)get_num_groups(1) * (long)rc;
  const bool whole = vec && nl == CPW;
  for (long f0 = (long)get_group_id(1) * (long)rc; f0 < nf; f0 += stride) {
    const long f1 = f0 + (long)rc < nf ? f0 + (long)rc : nf;
    long f = f0;
    // Whole packs four columns at a time, the four loads before any store
    // (as blas2_ger's: A is read and written through one pointer).
    if (whole) {
      for (; f + 3 < f1; f += 4) {
        const long at = 2 * ((long)ab + e0 * se + f * sf);  // the first pack's first real
        const RVT p0 = OPTUNE_GLOAD(REAL, RW, at / RW, ar);
        const RVT p1 = OPTUNE_GLOAD(REAL, RW, (at + 2 * sf) / RW, ar);
        const RVT p2 = OPTUNE_GLOAD(REAL, RW, (at + 4 * sf) / RW, ar);
        const RVT p3 = OPTUNE_GLOAD(REAL, RW, (at + 6 * sf) / RW, ar);
        PAIRS_PACK(p0, f, at)
        PAIRS_PACK(p1, f + 1, at + 2 * sf)
        PAIRS_PACK(p2, f + 2, at + 4 * sf)
        PAIRS_PACK(p3, f + 3, at + 6 * sf)
      }
    }
    for (; f < f1; ++f) {
      PAIRS_FACTOR(f)
      const long at = 2 * ((long)ab + e0 * se + f * sf);
      if (whole) {
        const RVT pk = OPTUNE_GLOAD(REAL, RW, at / RW, ar);
        PAIRS_UPDATE(pk, at)
      } else {
        for (int k = 0; k < nl; ++k) {
          if (held[2 * k]) continue;
          const long t = at + 2 * k * se;
          const REAL re = ar[t], im = ar[t + 1];
          ar[t] = re + (fa[2 * k] * gr + fb[2 * k] * gi);
          ar[t + 1] = im + (fa[2 * k + 1] * gr + fb[2 * k + 1] * gi);
        }
      }
    }
  }
}
#undef PAIRS_PACK
#undef PAIRS_UPDATE
#undef PAIRS_FACTOR
#undef RVT
#undef RW
#endif
