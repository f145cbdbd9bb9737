// blas2_dense: the blas2 program's dense gemv and ger kernels by packs of VW
// (real types, f16 storage included; complex ones with VW 1), after
// blas2_defs.cl (blas2.cl describes the routines and their flags).
//
// check-prepend: blas/blas_storage.cl blas/blas2_defs.cl
// check-variant: -DTYPE=float -DREAL=float -DVW=4
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1
// check-variant: -DHALF=1 -DVW=4
// check-variant: -DHALF=1 -DVW=2
// check-variant: -DHALF=1 -DVW=1
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1 -DGER_LOADS=4
// check-variant: -DTYPE=float -DREAL=float -DVW=4 -DGEMV_C_LOADS=1 -DGEMV_R_LOADS=1
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DGEMV_C_LOADS=1 -DGEMV_R_LOADS=0
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1 -DCPW=2
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DCPW=2

// ---- dense gemv and ger: packs of VW elements, several loads in flight ----
//
// A pack is VW consecutive elements along A's contiguous direction: one
// aligned access where the host allows it (F_VEC: A's base and leading
// dimension multiples of VW, and the pack wholly inside the matrix), else
// its lanes one by one (lanes past the matrix are 0 and never written).
// Complex types run VW 1 (an element is already a pair). With HALF the
// matrix and vectors are stored as half (ST) and a pack is VW halves read
// into (and written from) a float pack, the arithmetic in float.
#define VT OPTUNE_VEC(TYPE, VW)
// Packs of A each f16 dense gemv work-item loads before it uses them: 8,
// twice the four named loads of the other loops, since f16's packs hold half
// the bytes of f32's. Which other types take these loops: GEMV_R_LOADS and
// GEMV_C_LOADS below, as measured on the H200.
#define GEMV_LOADS 8
// blas2_gemv_r takes the same loop (GEMV_LOADS packs in an array, loaded
// before any is used) for complex types and f64 everywhere and for every
// type on CUDA. On the H200 (CUDA, 256 MiB gemv_t) it took c32 from 118 to
// 88 us, f32 from 68.2 to 65.5 and f64 from 77.8 to 75.7; on NVIDIA's OpenCL
// c32 moved within the spread (78.4 against 80.6 us), f64 went from 90.8 to
// 78.4 and f32 from 71.8 to 72.9 (within the spread), so f32 keeps four
// named loads there. Defined outside for the comparison
// (OPTUNE_BUILD_OPTIONS=-DGEMV_R_LOADS=0 or 1).
#ifndef GEMV_R_LOADS
#define GEMV_R_LOADS (HALF || COMPLEX || F64 || OPTUNE_BACKEND_CUDA)
#endif
// blas2_gemv_c's loop of GEMV_LOADS is f16's and f64's: on the H200 (gemv,
// 256 MiB) f64 went from 78.5 to 75.4 us on CUDA and from 74.5 to 72.4 on
// NVIDIA's OpenCL, f32 from 70.7 to 73.0 on CUDA (71.8 to 71.4 on OpenCL),
// and c32 fell from 76.2 to 151.0 (CUDA) and from 84.7 to 165.9 (OpenCL).
// (OPTUNE_BUILD_OPTIONS=-DGEMV_C_LOADS=0 or 1 forces it for the comparison.)
#ifndef GEMV_C_LOADS
#define GEMV_C_LOADS (HALF || F64)
#endif
#if VW == 1
#define VZERO ZERO
#else
#define VZERO OPTUNE_SPLAT(TYPE, VW, (TYPE)0)
#endif
#if HALF
#define PLOAD(p, at) OPTUNE_CAT(optune_vload_half, VW)((size_t)(at) / VW, p)
#define PSTORE(v, p, at) OPTUNE_CAT(optune_vstore_half, VW)(v, (size_t)(at) / VW, p)
#elif VW == 1
#define PLOAD(p, at) ((p)[at])
#define PSTORE(v, p, at) ((p)[at] = (v))
#else
#define PLOAD(p, at) (*(__global const VT*)((p) + (at)))
#define PSTORE(v, p, at) (*(__global VT*)((p) + (at)) = (v))
#endif

// The pack whose lane 0 is a[at], lanes ls apart, nl of them inside M.
OPTUNE_FUNC VT blas2_pack(__global const ST* a, const long at, const long ls, const int nl, const bool vec) {
#if VW == 1
  return LDE(a, at);
#else
  if (vec && nl == VW) return PLOAD(a, at);
  TYPE l[VW];
  for (int k = 0; k < VW; ++k) l[k] = k < nl ? LDE(a, at + k * ls) : (TYPE)0;
  return OPTUNE_VPACK(TYPE, VW, l);
#endif
}

// Lane k of a pack.
OPTUNE_FUNC TYPE blas2_lane(const VT v, const int k) {
#if VW == 1
  return v;
#elif VW == 2
  return k == 0 ? v.x : v.y;
#else
  return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
#endif
}

// x's elements j .. j + nl - 1 as a pack (0 past nl).
OPTUNE_FUNC VT blas2_xpack(__global const ST* x, const ulong xb, const long incx, const long j, const int nl) {
#if VW == 1
  return GET(x, xb, incx, j);
#else
  TYPE l[VW];
  for (int k = 0; k < VW; ++k) l[k] = k < nl ? GET(x, xb, incx, j + k) : (TYPE)0;
  return OPTUNE_VPACK(TYPE, VW, l);
#endif
}

// Part k of the split sums, read past the caches (another group wrote it).
OPTUNE_FUNC TYPE blas2_read_part(__global TYPE* part, const long k) {
  volatile __global REAL* p = (volatile __global REAL*)part;
#if COMPLEX
  TYPE v;
  v.x = p[2 * k];
  v.y = p[2 * k + 1];
  return v;
#else
  return p[k];
#endif
}

// y_i for rows first .. first + nrows - 1 from the slices' sums, in slice order.
OPTUNE_FUNC void blas2_add_slices(const long first, const long nrows, const ulong rows, const uint slices,
                                  __global TYPE* part, __global ST* y, const ulong yb, const long incy,
                                  const TYPE alpha, const TYPE beta, const int flags, const uint lid) {
  // (A counted loop with a test inside: PoCL 3 ran `for (k = lid; k <
  // nrows; k += WGS)` here past nrows.)
  const long iters = (nrows + WGS - 1) / WGS;
  for (long it = 0; it < iters; ++it) {
    const long k = it * WGS + lid;
    if (k >= nrows) break;
    const long i = first + k;
    // Four reads in flight (volatile reads are issued in order, and a sum
    // waits for its operand), added in slice order.
    TYPE sum = blas2_read_part(part, i);
    uint s = 1;
    for (; s + 3 < slices; s += 4) {
      const TYPE v0 = blas2_read_part(part, (long)s * (long)rows + i);
      const TYPE v1 = blas2_read_part(part, (long)(s + 1) * (long)rows + i);
      const TYPE v2 = blas2_read_part(part, (long)(s + 2) * (long)rows + i);
      const TYPE v3 = blas2_read_part(part, (long)(s + 3) * (long)rows + i);
      sum += v0;
      sum += v1;
      sum += v2;
      sum += v3;
    }
    for (; s < slices; ++s) sum += blas2_read_part(part, (long)s * (long)rows + i);
    const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : GET(y, yb, incy, i);
    PUT(y, yb, incy, i, blas2_finish(sum, alpha, beta, yold, flags));
  }
}

// The fused second pass: every group of a row block has written its slice's
// sums; the one that arrives last (the counter, after a global fence) adds
// them in slice order, so the result does not depend on the arrival order
// (`ticket`: a __local uint of the kernel).
#define FUSED_FINAL(counter, arrivals, first, nrows)                                            \
  {                                                                                             \
    mem_fence(CLK_GLOBAL_MEM_FENCE);                                                            \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                        \
    if (lid == 0) ticket = atomic_inc(counter);                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    if (ticket == (arrivals) - 1) {                                                            \
      mem_fence(CLK_GLOBAL_MEM_FENCE);                                                          \
      blas2_add_slices(first, nrows, rows, slices, part, y, yb, incy, alpha, beta, flags, lid); \
    }                                                                                           \
  }

#if COMPLEX
#define CONJ_IF(v, f) ((f) ? CONJ(v) : (v))
#else
#define CONJ_IF(v, f) (v)
#endif

// The dense gemv kernels' arguments (count: the row blocks' arrival counters).
#define GEMV_ARGS                                                                                                \
  const ulong rows, const ulong cols, __global const ST *a, const ulong ab, const long si, const long sj,        \
      __global const ST *x, const ulong xb, const long incx, __global ST *y, const ulong yb, const long incy,     \
      const TYPE alpha, const TYPE beta, const int flags, const uint tj, const ulong chunk, __global TYPE *part,  \
      __global uint *count

// gemv with M's columns contiguous (column-major N, row-major T / C): a
// work-item owns a pack of VW neighbouring rows, tj work-items per pack (WGS
// / tj packs apart) walk the slice's columns, four packs in flight (f16:
// GEMV_LOADS), each added in column order. Then the tj sums of each row go
// through a fixed tree; with one slice the group writes y, with several each
// row's sum goes to part[slice rows + i] and (F_FUSE) the row block's last
// group adds them (else blas2_mv_final does).
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_gemv_c(GEMV_ARGS) {
  __local VT red[WGS];
  __local uint ticket;
  const uint lid = get_local_id(0), rpg = WGS / tj;
  const uint r = lid % rpg, t = lid / rpg;
  const long i0 = ((long)get_group_id(0) * rpg + r) * VW;
  const int nl = i0 < (long)rows ? ((long)rows - i0 < VW ? (int)((long)rows - i0) : VW) : 0;
  const bool vec = (flags & F_VEC) != 0, cj = (flags & F_CONJ) != 0;
  const uint slices = get_num_groups(1);
  VT acc = VZERO;
  if (nl > 0) {
    const long s0 = (long)get_group_id(1) * (long)chunk;
    const long s1 = s0 + (long)chunk < (long)cols ? s0 + (long)chunk : (long)cols;
    const long base = (long)ab + i0 * si, step = tj;
    long j = s0 + t;
#if GEMV_C_LOADS
    // GEMV_LOADS packs and their x loaded before any is used, whole packs by
    // a loop of their own: with the test on nl inside blas2_pack, NVRTC put
    // each f16 pack's conversion to float in its branch, right after its load,
    // so a warp waited for each load before it issued the next (its PTX).
#define GEMV_C_STEPS(LOAD)                                                                      \
  for (; j + (GEMV_LOADS - 1) * step < s1; j += GEMV_LOADS * step) {                           \
    VT pk[GEMV_LOADS];                                                                          \
    TYPE xv[GEMV_LOADS];                                                                        \
    _Pragma("unroll") for (int u = 0; u < GEMV_LOADS; ++u) pk[u] = LOAD(base + (j + u * step) * sj); \
    _Pragma("unroll") for (int u = 0; u < GEMV_LOADS; ++u) xv[u] = GET(x, xb, incx, j + u * step); \
    _Pragma("unroll") for (int u = 0; u < GEMV_LOADS; ++u) acc += MUL(CONJ_IF(pk[u], cj), xv[u]);   \
  }
#define GEMV_C_WHOLE(at) PLOAD(a, at)
#define GEMV_C_LANES(at) blas2_pack(a, at, si, nl, vec)
    if (vec && nl == VW) {
      GEMV_C_STEPS(GEMV_C_WHOLE)
    } else {
      GEMV_C_STEPS(GEMV_C_LANES)
    }
#undef GEMV_C_STEPS
#undef GEMV_C_WHOLE
#undef GEMV_C_LANES
#else
    for (; j + 3 * step < s1; j += 4 * step) {
      const VT p0 = blas2_pack(a, base + j * sj, si, nl, vec);
      const VT p1 = blas2_pack(a, base + (j + step) * sj, si, nl, vec);
      const VT p2 = blas2_pack(a, base + (j + 2 * step) * sj, si, nl, vec);
      const VT p3 = blas2_pack(a, base + (j + 3 * step) * sj, si, nl, vec);
      acc += MUL(CONJ_IF(p0, cj), GET(x, xb, incx, j));
      acc += MUL(CONJ_IF(p1, cj), GET(x, xb, incx, j + step));
      acc += MUL(CONJ_IF(p2, cj), GET(x, xb, incx, j + 2 * step));
      acc += MUL(CONJ_IF(p3, cj), GET(x, xb, incx, j + 3 * step));
    }
#endif
    for (; j < s1; j += step) acc += MUL(CONJ_IF(blas2_pack(a, base + j * sj, si, nl, vec), cj), GET(x, xb, incx, j));
  }
  red[lid] = acc;
  for (uint s = tj / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < s) red[lid] = red[lid] + red[lid + s * rpg];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0 && nl > 0) {
    const VT sums = red[lid];
    for (int k = 0; k < nl; ++k) {
      if (slices == 1) {
        const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : GET(y, yb, incy, i0 + k);
        PUT(y, yb, incy, i0 + k, blas2_finish(blas2_lane(sums, k), alpha, beta, yold, flags));
      } else {
        part[(long)get_group_id(1) * (long)rows + i0 + k] = blas2_lane(sums, k);
      }
    }
  }
  if (slices > 1 && (flags & F_FUSE)) {
    const long first = (long)get_group_id(0) * rpg * VW;
    const long nrows = (long)rows - first < (long)rpg * VW ? (long)rows - first : (long)rpg * VW;
    FUSED_FINAL(&count[get_group_id(0)], slices, first, nrows)
  }
}

// gemv with M's rows contiguous (row-major N, column-major T / C): tj
// work-items side by side per row, each summing packs of VW columns (tj VW
// apart, four in flight, or GEMV_LOADS where GEMV_R_LOADS; x by packs too where F_XVEC), the
// lanes added at the end, then a fixed tree over the tj; the slices as in blas2_gemv_c.
// The host makes chunk a multiple of VW, so packs start aligned.
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_gemv_r(GEMV_ARGS) {
  __local TYPE red[WGS];
  __local uint ticket;
  const uint lid = get_local_id(0), rpg = WGS / tj;
  const uint r = lid / tj, t = lid % tj;
  const long i = (long)get_group_id(0) * rpg + r;
  const bool vec = (flags & F_VEC) != 0, xvec = (flags & F_XVEC) != 0, cj = (flags & F_CONJ) != 0;
  const uint slices = get_num_groups(1);
  VT acc = VZERO;
  if (i < (long)rows) {
    const long s0 = (long)get_group_id(1) * (long)chunk;
    const long s1 = s0 + (long)chunk < (long)cols ? s0 + (long)chunk : (long)cols;
    const long base = (long)ab + i * si, step = (long)tj * VW;
#define XPACK(j, nl) (xvec && (nl) == VW ? PLOAD(x, (long)xb + (j)) : blas2_xpack(x, xb, incx, j, nl))
    long j = s0 + (long)t * VW;
#if GEMV_R_LOADS
    for (; j + (GEMV_LOADS - 1) * step + VW <= s1; j += GEMV_LOADS * step) {
      VT pk[GEMV_LOADS];
#pragma unroll
      for (int u = 0; u < GEMV_LOADS; ++u) pk[u] = blas2_pack(a, base + (j + u * step) * sj, sj, VW, vec);
#pragma unroll
      for (int u = 0; u < GEMV_LOADS; ++u) acc += MUL(CONJ_IF(pk[u], cj), XPACK(j + u * step, VW));
    }
#else
    for (; j + 3 * step + VW <= s1; j += 4 * step) {
      const VT p0 = blas2_pack(a, base + j * sj, sj, VW, vec);
      const VT p1 = blas2_pack(a, base + (j + step) * sj, sj, VW, vec);
      const VT p2 = blas2_pack(a, base + (j + 2 * step) * sj, sj, VW, vec);
      const VT p3 = blas2_pack(a, base + (j + 3 * step) * sj, sj, VW, vec);
      acc += MUL(CONJ_IF(p0, cj), XPACK(j, VW));
      acc += MUL(CONJ_IF(p1, cj), XPACK(j + step, VW));
      acc += MUL(CONJ_IF(p2, cj), XPACK(j + 2 * step, VW));
      acc += MUL(CONJ_IF(p3, cj), XPACK(j + 3 * step, VW));
    }
#endif
    for (; j < s1; j += step) {
      const int nl = s1 - j < VW ? (int)(s1 - j) : VW;
      acc += MUL(CONJ_IF(blas2_pack(a, base + j * sj, sj, nl, vec), cj), XPACK(j, nl));
    }
#undef XPACK
  }
  red[lid] = OPTUNE_VSUM(VW, acc);
  for (uint s = tj / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < s) red[lid] = red[lid] + red[lid + s];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0 && i < (long)rows) {
    if (slices == 1) {
      const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : GET(y, yb, incy, i);
      PUT(y, yb, incy, i, blas2_finish(red[lid], alpha, beta, yold, flags));
    } else {
      part[(long)get_group_id(1) * (long)rows + i] = red[lid];
    }
  }
  if (slices > 1 && (flags & F_FUSE)) {
    const long first = (long)get_group_id(0) * rpg;
    const long nrows = (long)rows - first < (long)rpg ? (long)rows - first : (long)rpg;
    FUSED_FINAL(&count[get_group_id(0)], slices, first, nrows)
  }
}

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
// ger there) and the prelude's double4 has no arithmetic.
#ifndef CPW
#define CPW 0
#endif
#if COMPLEX && CPW > 0 && !OPTUNE_BACKEND_CUDA
#if CPW == 1
#define RW 2
#else
#define RW 4
#endif
#define RVT OPTUNE_VEC(REAL, RW)
// Element i of a complex vector read as reals (base b and increment inc in
// elements), conjugated where conj: *re, *im.
OPTUNE_FUNC void pairs_element(__global const REAL* p, const long b, const long inc, const long i, const bool conj,
                               REAL* re, REAL* im) {
  const long q = 2 * (b + i * inc);
  *re = p[q];
  *im = conj ? -p[q + 1] : p[q + 1];
}
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
