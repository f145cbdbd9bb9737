// conv_im2col: the input patches of `images` images from image n0, over the
// CG channels from channel c0 (one group's), as a row-major matrix
// col[P][D], P = images OH OW output pixels (n, oy, ox), D = CG R S taps in
// the weights' order ((c R + r) S + s), 0 where a tap falls in the padding.
// The host then multiplies it by the group's Kg x D weights with GEMM
// (ops/conv_launch.cpp). Elements are copied as their bits (ELEM: uint for
// f32, ushort for f16 and bf16), so no conversion rounds them.
//
// One element per work-item, the tap index fastest, so stores coalesce.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl conv/conv_common.cl
// check-variant: -DELEM=ushort -DIN_NHWC=1 -DWGS=256

#ifndef WGS
#define WGS 256          // work-items per group
#endif
#ifndef ELEM
#define ELEM uint        // the storage type's bits
#endif

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void conv_im2col(const int C, const int H, const int W, const int OH, const int OW, const int R, const int S,
                 const int SH, const int SW, const int DH, const int DW, const int PT, const int PL, const int n0,
                 const int images, const int c0, const int CG, __global const ELEM* in, const ulong in_off,
                 __global ELEM* col) {
  const ulong depth = (ulong)CG * (ulong)R * (ulong)S;
  const ulong id = get_global_id(0);
  if (id >= (ulong)images * (ulong)OH * (ulong)OW * depth) return;
  const ulong j = id % depth, p = id / depth;
  const int s = (int)(j % (ulong)S);
  const ulong t = j / (ulong)S;
  const int r = (int)(t % (ulong)R), c = (int)(t / (ulong)R);
  const int ox = (int)(p % (ulong)OW);
  const ulong q = p / (ulong)OW;
  const int oy = (int)(q % (ulong)OH);
  const ulong n = (ulong)n0 + q / (ulong)OH;
  const int iy = oy * SH - PT + r * DH, ix = ox * SW - PL + s * DW;
  col[id] = (iy < 0 || iy >= H || ix < 0 || ix >= W) ? (ELEM)0
                                                      : in[in_off + conv_index(IN_NHWC, n, c0 + c, iy, ix, C, H, W)];
}
