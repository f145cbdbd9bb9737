// softmax_cols: softmax or log_softmax along an axis that is not the last one,
// over a dense [outer][rows][inner] tensor (the axis is `rows`, inner > 1):
//   y[o, r, i] = exp(x[o, r, i] - m) / s            (LOG = 0)
//   y[o, r, i] = (x[o, r, i] - m) - log(s)          (LOG = 1)
// with m = max over r and s = sum over r of exp(x - m) for each (o, i).
//
// One work-item per column (o, i); consecutive work-items take consecutive
// i, so each step along r reads one coalesced run of the group's columns:
//
//   r = 0:  | i0 i1 i2 ... |      work-items 0 1 2 ... of a group
//   r = 1:  | i0 i1 i2 ... |
//
// Pass 1 keeps an online maximum and sum (rescaling the sum when the
// maximum grows), pass 2 reads x again and writes y: two reads, one write.
// NaN and infinities behave as in norm_rows: a column holding NaN or +inf
// gives NaN throughout; a column of -inf gives NaN.
//
// check-variant: -DLOG=1 -DIN_T=half -DIN_HALF=1
// check-variant: -DIN_T=bf16 -DIN_BF16=1
// check-variant: -DACC=double -DIN_T=double

#ifndef LOG
#define LOG 0            // 0 softmax, 1 log_softmax
#endif
#ifndef IN_T
#define IN_T float       // storage type of x and y
#endif
#ifndef IN_HALF
#define IN_HALF 0        // 1: half storage (vload_half / vstore_half)
#endif
#ifndef IN_BF16
#define IN_BF16 0        // 1: bf16 storage (vload_bf16 / vstore_bf16)
#endif
#ifndef ACC
#define ACC float        // compute type
#endif
#ifndef WGS
#define WGS 256          // work-items per group
#endif

#ifndef INFINITY
#define INFINITY (1.0f / 0.0f)
#endif

#if IN_HALF
#define LOAD(i, p) ((ACC)vload_half(i, p))
#define STORE(v, i, p) vstore_half((float)(v), i, p)
#elif IN_BF16
#define LOAD(i, p) ((ACC)vload_bf16(i, p))
#define STORE(v, i, p) vstore_bf16((v), i, p)
#else
#define LOAD(i, p) ((ACC)(p)[i])
#define STORE(v, i, p) ((p)[i] = (IN_T)(v))
#endif

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void softmax_cols(const ulong outer, const ulong rows, const ulong inner, __global const IN_T* x,
                  const ulong x_off, __global IN_T* y, const ulong y_off) {
  const ulong id = get_global_id(0);
  if (id >= outer * inner) return;
  const ulong o = id / inner, i = id % inner;
  const ulong xs = x_off + o * rows * inner + i, ys = y_off + o * rows * inner + i;
  ACC m = -(ACC)INFINITY, s = (ACC)0;
  for (ulong r = 0; r < rows; ++r) {
    const ACC v = LOAD(xs + r * inner, x);
    // exp(v - v) rather than 1: a +inf element makes the sum NaN.
    if (v > m) {
      s = s * exp(m - v) + exp(v - v);
      m = v;
    } else if (v != -(ACC)INFINITY) {
      s += exp(v - m);
    }
  }
#if LOG
  const ACC b = log(s);
#else
  const ACC b = (ACC)1 / s;
#endif
  for (ulong r = 0; r < rows; ++r) {
    const ACC v = LOAD(xs + r * inner, x);
#if LOG
    STORE((v - m) - b, ys + r * inner, y);
#else
    STORE(exp(v - m) * b, ys + r * inner, y);
#endif
  }
}
