// symm_expand: the full n x n matrix of a symmetric (symm) or Hermitian
// (hemm) one of which only one triangle is read, for the GEMM that runs the
// routine (as CLBlast's symm and hemm do).
//
// In stored coordinates (element (r, c) at src_off + r * ld + c; the host
// turns a column-major call's triangle into the stored one):
//   dst(r, c) = S(r, c)             where (r, c) is in the stored triangle
//                                   (SYMM_UPPER: c >= r; else c <= r),
//   dst(r, c) = S(c, r)             elsewhere (SYMM_HERM: conj(S(c, r))),
// and a Hermitian diagonal has its imaginary part taken as 0 (netlib's
// REAL(A(I,I))). dst is dense (row length n). The mirrored values go through
// a TILE x TILE local tile, so reads and writes are coalesced; groups whose
// tile lies wholly in the stored triangle skip it.
//
// Elements are PARTS consecutive REALs: 1 for real types, 2 for complex
// (interleaved re, im).
//
// check-variant: -DREAL=float -DPARTS=1 -DTILE=8
// check-variant: -DREAL=double -DPARTS=2
// check-variant: -DREAL=ushort -DPARTS=1

#ifndef REAL
#define REAL float       // the part type
#endif
#ifndef PARTS
#define PARTS 1          // REALs per element: 1 real, 2 complex
#endif
#ifndef TILE
#define TILE 16          // side of a group's tile (work-items TILE x TILE)
#endif

#define SYMM_UPPER 1u
#define SYMM_HERM 2u

__kernel OPTUNE_WG_SIZE(TILE, TILE, 1)
void symm_expand(const ulong n, __global const REAL* restrict src, const ulong src_off, const ulong ld,
                 __global REAL* restrict dst, const uint flags) {
  __local REAL tre[TILE * (TILE + 1)];
#if PARTS == 2
  __local REAL tim[TILE * (TILE + 1)];
#endif
  const ulong lx = get_local_id(0), ly = get_local_id(1);
  const ulong r0 = (ulong)get_group_id(1) * TILE, c0 = (ulong)get_group_id(0) * TILE;
  const ulong r = r0 + ly, c = c0 + lx;
  const int upper = (flags & SYMM_UPPER) != 0;
  const __global REAL* s = src + PARTS * src_off;
  // Whether the tile holds elements outside the stored triangle (uniform
  // over the group, so the barrier is reached by all or none).
  const int mirrored = upper ? r0 + TILE - 1 > c0 : c0 + TILE - 1 > r0;
  REAL mre = 0, mim = 0;
  if (mirrored) {
    // This item reads S(c0 + ly, r0 + lx), along a row; element (r, c)
    // needs S(c, r), which the item (ly, lx) read.
    REAL re = 0, im = 0;
    if (c0 + ly < n && r0 + lx < n) {
      const ulong e = PARTS * ((c0 + ly) * ld + r0 + lx);
      re = s[e];
#if PARTS == 2
      im = s[e + 1];
#endif
    }
    tre[ly * (TILE + 1) + lx] = re;
#if PARTS == 2
    tim[ly * (TILE + 1) + lx] = im;
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    mre = tre[lx * (TILE + 1) + ly];
#if PARTS == 2
    mim = tim[lx * (TILE + 1) + ly];
#endif
  }
  if (r >= n || c >= n) return;
  const int stored = upper ? c >= r : c <= r;
  REAL re = mre, im = mim;
  if (stored) {
    const ulong e = PARTS * (r * ld + c);
    re = s[e];
#if PARTS == 2
    im = s[e + 1];
#endif
  } else if (flags & SYMM_HERM) {
    im = -im;
  }
  if ((flags & SYMM_HERM) && r == c) im = 0;
  const ulong o = PARTS * (r * n + c);
  dst[o] = re;
#if PARTS == 2
  dst[o + 1] = im;
#else
  (void)im;
#endif
}
