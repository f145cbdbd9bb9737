// peak: the arithmetic-rate ceiling. Each work-item runs ITERS rounds of
// CHAINS independent fused multiply-adds on VW-wide vectors of TYPE and
// writes one value, so the compiler can drop nothing:
//
//   acc_c = fma(acc_c, a, b)   for c < CHAINS, ITERS times
//   out[gid] = sum over c and lanes of acc_c
//
// FLOPs per work-item: 2 * ITERS * CHAINS * VW. a and b are kernel arguments
// (a close to 1) so the values stay finite and nothing folds at compile time.
//
// check-variant: -DTYPE=half -DVW=2
// check-variant: -DTYPE=half -DVW=8
// check-variant: -DTYPE=double -DVW=16

#ifndef TYPE
#define TYPE float       // float, double, or half (needs OPTUNE_HAS_FP16)
#endif
#ifndef VW
#define VW 4             // lanes per vector (1, 2, 4; 8 and 16 on OpenCL)
#endif
#ifndef WGS
#define WGS 256          // work-items per group
#endif
#ifndef ITERS
#define ITERS 256        // rounds per work-item
#endif

#define VTYPE OPTUNE_VEC(TYPE, VW)
#define CHAINS 8         // independent accumulators, enough to hide FMA latency

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void peak(__global TYPE* restrict out, const float a_in, const float b_in) {
  const VTYPE a = OPTUNE_SPLAT(TYPE, VW, (TYPE)a_in);
  const VTYPE b = OPTUNE_SPLAT(TYPE, VW, (TYPE)b_in);
  const TYPE seed = (TYPE)(float)(get_global_id(0) & 7);
  VTYPE c0 = OPTUNE_SPLAT(TYPE, VW, seed);
  VTYPE c1 = c0 + b, c2 = c1 + b, c3 = c2 + b, c4 = c3 + b, c5 = c4 + b, c6 = c5 + b, c7 = c6 + b;
  for (int i = 0; i < ITERS; ++i) {
    c0 = fma(c0, a, b); c1 = fma(c1, a, b); c2 = fma(c2, a, b); c3 = fma(c3, a, b);
    c4 = fma(c4, a, b); c5 = fma(c5, a, b); c6 = fma(c6, a, b); c7 = fma(c7, a, b);
  }
  const VTYPE s = ((c0 + c1) + (c2 + c3)) + ((c4 + c5) + (c6 + c7));
  out[get_global_id(0)] = OPTUNE_VSUM(VW, s);
}
