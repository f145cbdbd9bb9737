// norm_rows: normalisations along the last axis of a dense [rows][cols] tensor.
//
//   OP 0 softmax      y = exp(x - m) / s             m = max(x), s = sum(exp(x - m))
//   OP 1 log_softmax  y = (x - m) - log(s)
//   OP 2 layer_norm   y = (x - mean) * rstd * gamma + beta,  rstd = 1 / sqrt(var + eps)
//   OP 3 rms_norm     y = x * rstd * gamma,                   rstd = 1 / sqrt(mean(x^2) + eps)
// (var is the biased variance; gamma and beta are optional vectors of cols
// elements; layer_norm can also write each row's mean and rstd.)
//
// A row is handled by tpr lanes (a power of two, an argument); a group holds
// WGS / tpr rows. Three strategies, chosen by the host from the row length,
// as OneFlow does:
//   STRATEGY 0  registers: each lane keeps its NPACK packs of VW elements in
//               private memory; one read and one write of the row.
//               lane l holds packs l, l + tpr, ..., l + (NPACK-1) * tpr.
//   STRATEGY 1  local: one row per group (tpr = WGS), the row cached in local
//               memory as ACC (CACHE elements); one read and one write.
//   STRATEGY 2  multi-pass: one row per group, nothing cached; a statistics
//               pass (online max and sum for softmax, Welford for layer_norm)
//               and a writing pass: two reads and one write.
// Strategies 0 and 1 take layer_norm's variance in two passes over the cached
// row (the corrected two-pass algorithm); softmax subtracts the maximum.
//
//   row:  | pack 0 | pack 1 | ... | pack tpr-1 | pack tpr | ...
//           lane 0   lane 1         lane tpr-1   lane 0
//
// Statistics are combined across the lanes of a row by sub_group_reduce_*
// (SG = 1, subgroup size known and dividing tpr) or a local-memory tree.
// Rows holding NaN or +inf give NaN throughout for softmax; a row of -inf
// gives NaN (0 / 0, as PyTorch); every strategy agrees on this.
//
// x and y may be the same view (in place): each element is read and then
// written by the same work-item, and x is not declared restrict.
//
// check-variant: -DOP=2 -DSTRATEGY=1 -DCACHE=4096 -DHAS_GAMMA=1 -DHAS_BETA=1 -DSTATS=1
// check-variant: -DOP=2 -DSTRATEGY=2 -DSG=1 -DOPTUNE_SUBGROUP_SIZE=32 -DIN_T=half -DIN_HALF=1
// check-variant: -DOP=2 -DSTRATEGY=0 -DNPACK=8 -DVW=4 -DIN_T=bf16 -DIN_BF16=1 -DSTATS=1 -DSTAT_T=bf16 -DSTAT_BF16=1
// check-variant: -DOP=1 -DSTRATEGY=2 -DACC=double -DIN_T=double -DVW=1 -DSTAT_T=double -DSTATS=1
// check-variant: -DOP=2 -DSTRATEGY=0 -DNPACK=8 -DSG=1 -DOPTUNE_SUBGROUP_SIZE=32 -DSTATS=1 -DSTAT_T=half -DSTAT_HALF=1
// check-variant: -DOP=3 -DSTRATEGY=0 -DNPACK=4 -DSG=1 -DOPTUNE_SUBGROUP_SIZE=16 -DHAS_GAMMA=1
// check-variant: -DOP=0 -DSTRATEGY=1 -DCACHE=1024 -DSG=1 -DOPTUNE_SUBGROUP_SIZE=32 -DVW=1

#ifndef OP
#define OP 0             // 0 softmax, 1 log_softmax, 2 layer_norm, 3 rms_norm
#endif
#ifndef IN_T
#define IN_T float       // storage type of x, y, gamma and beta
#endif
#ifndef IN_HALF
#define IN_HALF 0        // 1: half storage (vload_half / vstore_half)
#endif
#ifndef ACC
#define ACC float        // compute type
#endif
#ifndef STAT_T
#define STAT_T float     // storage type of the mean and rstd outputs
#endif
#ifndef STAT_HALF
#define STAT_HALF 0      // 1: mean and rstd are half storage
#endif
#ifndef IN_BF16
#define IN_BF16 0        // 1: bf16 storage (vload_bf16 / vstore_bf16)
#endif
#ifndef STAT_BF16
#define STAT_BF16 0      // 1: mean and rstd are bf16 storage
#endif
#ifndef WGS
#define WGS 256          // work-items per group
#endif
#ifndef VW
#define VW 4             // elements per load and store (pack)
#endif
#ifndef SG
#define SG 0             // 1: subgroup reductions where the lane count allows
#endif
#ifndef STRATEGY
#define STRATEGY 0       // 0 registers, 1 local-memory cache, 2 multi-pass
#endif
#ifndef NPACK
#define NPACK 8          // strategy 0: packs each lane keeps in registers
#endif
#ifndef CACHE
#define CACHE 2048       // strategy 1: elements of the row cached in local memory (>= cols)
#endif
#ifndef HAS_GAMMA
#define HAS_GAMMA 0      // 1: multiply by gamma[col]
#endif
#ifndef HAS_BETA
#define HAS_BETA 0       // 1: add beta[col] (layer_norm)
#endif
#ifndef STATS
#define STATS 0          // 1: write mean[row] and rstd[row] (layer_norm)
#endif

#define OP_SOFTMAX 0
#define OP_LOG_SOFTMAX 1
#define OP_LAYER_NORM 2
#define OP_RMS_NORM 3
#define SOFTMAX_LIKE (OP == OP_SOFTMAX || OP == OP_LOG_SOFTMAX)

#ifndef INFINITY
#define INFINITY (1.0f / 0.0f)
#endif
#ifndef NAN
#define NAN (0.0f / 0.0f)
#endif
#ifndef OPTUNE_LOCAL_PTR
#define OPTUNE_LOCAL_PTR __local
#endif

#if defined(OPTUNE_SUBGROUP_SIZE) && SG && OPTUNE_HAS_SUBGROUPS
#define SGS OPTUNE_SUBGROUP_SIZE
#define HAVE_SG 1
#else
#define SGS 1
#define HAVE_SG 0
#endif

#if IN_HALF
#define LOAD1(i, p) ((ACC)vload_half(i, p))
#define LOAD_PACK(i, p) OPTUNE_CAT(optune_vload_half, VW)(i, p)
#define STORE_PACK(v, i, p) OPTUNE_CAT(optune_vstore_half, VW)(v, i, p)
#define PACK_T OPTUNE_VEC(float, VW)
#elif IN_BF16
#define LOAD1(i, p) ((ACC)vload_bf16(i, p))
#define LOAD_PACK(i, p) OPTUNE_CAT(optune_vload_bf16, VW)(i, p)
#define STORE_PACK(v, i, p) OPTUNE_CAT(optune_vstore_bf16, VW)(v, i, p)
#define PACK_T OPTUNE_VEC(float, VW)
#else
#define LOAD1(i, p) ((ACC)(p)[i])
#define LOAD_PACK(i, p) OPTUNE_GLOAD(IN_T, VW, i, p)
#define STORE_PACK(v, i, p) OPTUNE_GSTORE(IN_T, VW, v, i, p)
#define PACK_T OPTUNE_VEC(IN_T, VW)
#endif

// NaN-propagating maximum.
OPTUNE_FUNC ACC nan_max(ACC a, ACC b) { return (b > a || b != b) ? b : a; }

// The sum of v over the tpr lanes of each row (lane = lid % tpr), returned
// to every lane of the row. Every work-item of the group calls it.
OPTUNE_FUNC ACC row_sum(ACC v, OPTUNE_LOCAL_PTR ACC* red, uint lid, uint tpr) {
  const uint lane = lid & (tpr - 1);
#if HAVE_SG
  if (tpr % SGS == 0 && tpr / SGS <= SGS) {
    v = sub_group_reduce_add(v);
    if (tpr > SGS) {
      if (lane % SGS == 0) red[lid / SGS] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      const uint first = (lid - lane) / SGS;
      v = red[first];
      for (uint k = 1; k < tpr / SGS; ++k) v += red[first + k];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    return v;
  }
#endif
  red[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint h = tpr / 2; h > 0; h >>= 1) {
    if (lane < h) red[lid] = red[lid] + red[lid + h];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  v = red[lid - lane];
  barrier(CLK_LOCAL_MEM_FENCE);
  return v;
}

#if OP == OP_LAYER_NORM
// Two sums at the price of one tree (the pair of layer_norm's second pass).
OPTUNE_FUNC void row_sum2(ACC* u, ACC* w, OPTUNE_LOCAL_PTR ACC* red, OPTUNE_LOCAL_PTR ACC* red2, uint lid,
                          uint tpr) {
  const uint lane = lid & (tpr - 1);
#if HAVE_SG
  if (tpr % SGS == 0 && tpr / SGS <= SGS) {
    *u = row_sum(*u, red, lid, tpr);
    *w = row_sum(*w, red, lid, tpr);
    return;
  }
#endif
  red[lid] = *u;
  red2[lid] = *w;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint h = tpr / 2; h > 0; h >>= 1) {
    if (lane < h) {
      red[lid] = red[lid] + red[lid + h];
      red2[lid] = red2[lid] + red2[lid + h];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *u = red[lid - lane];
  *w = red2[lid - lane];
  barrier(CLK_LOCAL_MEM_FENCE);
}
#endif

// The NaN-propagating maximum of v over the lanes of each row.
OPTUNE_FUNC ACC row_max(ACC v, OPTUNE_LOCAL_PTR ACC* red, uint lid, uint tpr) {
  const uint lane = lid & (tpr - 1);
#if HAVE_SG
  if (tpr % SGS == 0 && tpr / SGS <= SGS) {
    const int has_nan = sub_group_any(v != v);
    v = has_nan ? (ACC)NAN : sub_group_reduce_max(v);
    if (tpr > SGS) {
      if (lane % SGS == 0) red[lid / SGS] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      const uint first = (lid - lane) / SGS;
      v = red[first];
      for (uint k = 1; k < tpr / SGS; ++k) v = nan_max(v, red[first + k]);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    return v;
  }
#endif
  red[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint h = tpr / 2; h > 0; h >>= 1) {
    if (lane < h) red[lid] = nan_max(red[lid], red[lid + h]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  v = red[lid - lane];
  barrier(CLK_LOCAL_MEM_FENCE);
  return v;
}

#define VACC OPTUNE_VEC(ACC, VW)

// Pack j of this lane (pack p of the row) as ACC vector: from registers
// (STRATEGY 0) or the local cache (STRATEGY 1, an array of packs, so aligned).
#if STRATEGY == 0
#define ELEM(j, p) v[j]
#define NITER NPACK
#elif STRATEGY == 1
#define ELEM(j, p) cache[p]
#define NITER ((packs + tpr - 1) / tpr)
#endif

// y for a pack with the row's statistics a and b: softmax (m, 1/s) of packs
// already holding exp(x - m), log_softmax (m, log s) and softmax from x
// (STRATEGY 2) through exp, layer_norm (mean - shift, rstd), rms_norm (-, rstd).
OPTUNE_FUNC VACC normalise(VACC x, ACC a, ACC b, VACC g, VACC be, int from_exp, ACC shift) {
#if OP == OP_SOFTMAX
  return (from_exp ? x : exp(x - a)) * b;
#elif OP == OP_LOG_SOFTMAX
  return (x - a) - b;
#elif OP == OP_LAYER_NORM
  return ((x - shift) - a) * b * g + be;
#else
  return x * b * g;
#endif
}

// The largest component, NaN-propagating.
OPTUNE_FUNC ACC pack_max(VACC v) {
  ACC e[VW];
  OPTUNE_VUNPACK(VW, v, e);
  ACC m = e[0];
  for (uint k = 1; k < VW; ++k) m = nan_max(m, e[k]);
  return m;
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void norm_rows(const ulong rows, const ulong cols, const uint tpr, __global const IN_T* x, const ulong x_off,
               __global IN_T* y, const ulong y_off, __global const IN_T* restrict gamma, const ulong g_off,
               __global const IN_T* restrict beta, const ulong b_off, __global STAT_T* restrict mean_out,
               const ulong mean_off, __global STAT_T* restrict rstd_out, const ulong rstd_off, const ACC eps) {
  __local ACC red[WGS];
#if STRATEGY == 1
  __local VACC cache[CACHE / VW];
#endif
  const uint lid = get_local_id(0);
  const uint lane = lid & (tpr - 1);
  const ulong row = get_group_id(0) * (WGS / tpr) + lid / tpr;
  const ulong packs = cols / VW;
  const int live = row < rows;
  const ulong xb = (x_off + row * cols) / VW, yb = (y_off + row * cols) / VW;  // pack indices of the row
  const ACC n = (ACC)cols;
  const VACC zero = OPTUNE_SPLAT(ACC, VW, 0);
  ACC a, b;
  // layer_norm works on x - shift and keeps a = mean - shift, shift being the
  // first pass's mean (strategies 0, 1: the corrected two-pass algorithm) or
  // the row's first element (strategy 2, Welford): for a row far from zero
  // (1000 plus noise) the sums and x - mean then carry the rounding of the
  // noise, not of the magnitude.
#if OP == OP_LAYER_NORM && STRATEGY == 2
  const ACC shift = live ? LOAD1(xb * VW, x) : (ACC)0;
#elif OP == OP_LAYER_NORM
  __local ACC red2[WGS];
  ACC shift;
#else
  const ACC shift = (ACC)0;
#endif

#if STRATEGY == 0 || STRATEGY == 1
#if STRATEGY == 0
  VACC v[NPACK];
#endif
  // Read the row once, the first statistic on the way. The maximum ignores
  // NaN here (fmax); a NaN still makes the sum of exp, and so the row, NaN.
#if SOFTMAX_LIKE
  VACC s1 = OPTUNE_SPLAT(ACC, VW, -INFINITY);
#else
  VACC s1 = zero;
#endif
  for (uint j = 0; j < NITER; ++j) {
    const ulong p = (ulong)j * tpr + lane;
    if (live && p < packs) {
      const VACC e = LOAD_PACK(xb + p, x);
      ELEM(j, p) = e;
#if SOFTMAX_LIKE
      s1 = fmax(s1, e);
#elif OP == OP_LAYER_NORM
      s1 = s1 + e;
#else
      s1 = s1 + e * e;
#endif
    }
  }
  VACC s2 = zero;
#if SOFTMAX_LIKE
  a = row_max(pack_max(s1), red, lid, tpr);
  for (uint j = 0; j < NITER; ++j) {
    const ulong p = (ulong)j * tpr + lane;
    if (live && p < packs) {
      const VACC e = exp(ELEM(j, p) - a);
      s2 = s2 + e;
#if OP == OP_SOFTMAX
      ELEM(j, p) = e;
#endif
    }
  }
  const ACC total = row_sum(OPTUNE_VSUM(VW, s2), red, lid, tpr);
  b = OP == OP_SOFTMAX ? (ACC)1 / total : log(total);
#elif OP == OP_LAYER_NORM
  shift = row_sum(OPTUNE_VSUM(VW, s1), red, lid, tpr) / n;
  VACC s3 = zero;
  for (uint j = 0; j < NITER; ++j) {
    const ulong p = (ulong)j * tpr + lane;
    if (live && p < packs) {
      const VACC d = ELEM(j, p) - shift;
      s2 = s2 + d * d;
      s3 = s3 + d;
    }
  }
  ACC sq = OPTUNE_VSUM(VW, s2), dsum = OPTUNE_VSUM(VW, s3);
  row_sum2(&sq, &dsum, red, red2, lid, tpr);
  a = dsum / n;
  const ACC var = sq / n - a * a;  // a is tiny: no cancellation, but keep var >= 0 (NaN stays NaN)
  b = (ACC)1 / sqrt((var < (ACC)0 ? (ACC)0 : var) + eps);
#else
  a = (ACC)0;
  b = (ACC)1 / sqrt(row_sum(OPTUNE_VSUM(VW, s1), red, lid, tpr) / n + eps);
#endif

#else  // STRATEGY 2: statistics in one streaming pass
#if SOFTMAX_LIKE
  ACC m = -(ACC)INFINITY, s = (ACC)0;  // online: s = sum of exp(x - m) so far
#elif OP == OP_LAYER_NORM
  ACC cnt = (ACC)0, mu = (ACC)0, m2 = (ACC)0;  // Welford
#else
  VACC sq = zero;
#endif
  for (ulong p = lane; live && p < packs; p += tpr) {
    const PACK_T pv = LOAD_PACK(xb + p, x);
#if OP == OP_RMS_NORM
    sq = sq + pv * pv;
#else
    ACC t[VW];
    OPTUNE_VUNPACK(VW, pv, t);
    for (uint k = 0; k < VW; ++k) {
#if SOFTMAX_LIKE
      // exp(x - x) rather than 1 so that a +inf element makes s NaN, as the
      // two-pass form does; -inf elements add nothing (and no inf - inf).
      if (t[k] > m) {
        s = s * exp(m - t[k]) + exp(t[k] - t[k]);
        m = t[k];
      } else if (t[k] != -(ACC)INFINITY) {
        s += exp(t[k] - m);
      }
#else
      const ACC u = t[k] - shift;
      cnt += (ACC)1;
      const ACC d = u - mu;
      mu += d / cnt;
      m2 += d * (u - mu);
#endif
    }
#endif
  }
#if SOFTMAX_LIKE
  a = row_max(m, red, lid, tpr);
  // A lane that saw nothing (s = 0, m = -inf) adds 0, not 0 * exp(NaN); a NaN s stays.
  const ACC scaled = s == (ACC)0 ? (ACC)0 : s * exp(m - a);
  const ACC total = row_sum(scaled, red, lid, tpr);
  b = OP == OP_SOFTMAX ? (ACC)1 / total : log(total);
#elif OP == OP_LAYER_NORM
  // Chan et al.: M2 = sum of the lanes' M2 + cnt * (mu_lane - mean)^2.
  const ACC rel = row_sum(cnt * mu, red, lid, tpr) / n;  // the mean minus shift
  const ACC dm = mu - rel;
  const ACC var = row_sum(m2 + (cnt > (ACC)0 ? cnt * dm * dm : (ACC)0), red, lid, tpr) / n;
  // An infinity makes var NaN (inf - inf) but leaves rel infinite when it was
  // its lane's last element: the mean is NaN then, as in strategies 0 and 1.
  a = var == var ? rel : var;
  b = (ACC)1 / sqrt(var + eps);
#else
  a = (ACC)0;
  b = (ACC)1 / sqrt(row_sum(OPTUNE_VSUM(VW, sq), red, lid, tpr) / n + eps);
#endif
#endif

#if STATS
  if (live && lane == 0) {
#if STAT_HALF
    vstore_half((float)(shift + a), mean_off + row, mean_out);
    vstore_half((float)b, rstd_off + row, rstd_out);
#elif STAT_BF16
    vstore_bf16(shift + a, mean_off + row, mean_out);
    vstore_bf16(b, rstd_off + row, rstd_out);
#else
    mean_out[mean_off + row] = (STAT_T)(shift + a);
    rstd_out[rstd_off + row] = (STAT_T)b;
#endif
  }
#endif

  // Write the row.
#if STRATEGY == 2
  for (ulong p = lane; live && p < packs; p += tpr) {
    const VACC src = LOAD_PACK(xb + p, x);
#else
  for (uint j = 0; j < NITER; ++j) {
    const ulong p = (ulong)j * tpr + lane;
    if (!live || p >= packs) continue;
    const VACC src = ELEM(j, p);
#endif
#if HAS_GAMMA
    const VACC g = LOAD_PACK(g_off / VW + p, gamma);
#else
    const VACC g = OPTUNE_SPLAT(ACC, VW, 1);
#endif
#if HAS_BETA
    const VACC be = LOAD_PACK(b_off / VW + p, beta);
#else
    const VACC be = zero;
#endif
    STORE_PACK(normalise(src, a, b, g, be, STRATEGY != 2, shift), yb + p, y);
  }
}
