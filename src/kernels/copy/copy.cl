// copy: y[i] = x[i] for i < n, the kernel behind the copy-bandwidth ceiling.
//
// Data: x and y are contiguous arrays of TYPE starting at x_offset and
// y_offset (elements). The array is cut into packs of VW elements, each moved
// by one vector access; the host picks VW > 1 only when both offsets make the
// packs aligned to VW * sizeof(TYPE) bytes.
//
//   x: | pack 0 | pack 1 | ... | pack P-1 | tail (n mod VW) |
//        wi 0     wi 1           wi P-1     wi 0 .. VW-2
//
// GRID_STRIDE = 0: one pack per work-item, the grid covers every pack.
// GRID_STRIDE = 1: a grid of a few waves; each work-item strides by the grid.
//
// check-variant: -DTYPE=ushort -DVW=4 -DGRID_STRIDE=1
// check-variant: -DTYPE=uchar -DVW=2

#ifndef TYPE
#define TYPE float       // element type
#endif
#ifndef VW
#define VW 4             // elements per access (1, 2, 4)
#endif
#ifndef WGS
#define WGS 256          // work-items per group
#endif
#ifndef GRID_STRIDE
#define GRID_STRIDE 0    // 0: a pack per work-item; 1: grid-stride loop
#endif

#define PACK OPTUNE_VEC(TYPE, VW)

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void copy(const ulong n, __global const TYPE* restrict x, const ulong x_offset,
          __global TYPE* restrict y, const ulong y_offset) {
  const __global TYPE* xs = x + x_offset;
  __global TYPE* ys = y + y_offset;
  const ulong packs = n / VW;
  const ulong gid = get_global_id(0);
#if GRID_STRIDE
  const ulong stride = get_global_size(0);
  for (ulong p = gid; p < packs; p += stride) {
    const PACK v = OPTUNE_GLOAD(TYPE, VW, p, xs);
    OPTUNE_GSTORE(TYPE, VW, v, p, ys);
  }
#else
  if (gid < packs) {
    const PACK v = OPTUNE_GLOAD(TYPE, VW, gid, xs);
    OPTUNE_GSTORE(TYPE, VW, v, gid, ys);
  }
#endif
  // The last n mod VW elements, one per work-item of the first group.
  const ulong t = packs * VW + gid;
  if (t < n) ys[t] = xs[t];
}
