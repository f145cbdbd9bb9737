// im2col and col2im: the patch matrix of a convolution and its adjoint,
// shared by the BLAS extras (blas_extra family: CLBlast's xIM2COL and
// xCOL2IM) and the convolution's im2col candidate (conv_im2col family).
//
// Shapes. The image holds `images` images of CH channels of H x W, element
// (n, c, y, x) at in_off + n sn + c sc + y sy + x sx (NCHW, NHWC or one
// CLBlast image: the host gives the strides). A patch (output pixel)
// p = (n, oy, ox) of OH x OW per image reads tap j = (c, r, s), r < R,
// s < S, at input row oy SH - PT + r DH and column ox SW - PL + s DW; a tap in
// the padding reads 0. With `flip` (CLBlast's convolution mode) tap (r, s)
// reads the kernel position (R-1-r, S-1-s) instead.
//
// im2col writes element (p, j) of the patch matrix at col_off + the index
// of (p, j) with the tap fastest (TAPS_FASTEST 1: a row of taps per pixel,
// the convolution's pixel-major matrix) or the pixel fastest (TAPS_FASTEST
// 0: CLBlast's (CH R S) x (OH OW) matrix, row j = (c R + r) S + s). Either
// way consecutive work-items write consecutive elements (coalesced stores). Elements are copied as their bits, WORDS words of
// ELEM each (ushort: f16 / bf16; uint: f32; ulong: f64 and c32; two ulongs:
// c64), so nothing rounds and no type needs a device extension.
//
// col2im (CLBlast's matrix layout, one image) adds the patch matrix back
// into the image: each work-item owns PV consecutive elements of an image
// row and sums for each, in a fixed tap order, the matrix elements that read
// it, then adds the sum to the element (im += sum): a gather, so no two
// work-items write one element and the result depends on neither
// scheduling nor PV. TYPE is the storage type,
// ACC the sum's (half storage sums in float, rounded once at the store).
//
// Both loop over their elements grid-stride (the host may launch fewer
// work-items than elements).
//
// check-variant: -DELEM=ushort -DTAPS_FASTEST=1
// check-variant: -DPV=4
// check-variant: -DELEM=ushort -DPV=4 -DIDX=uint
// check-variant: -DELEM=ulong -DPV=2
// check-variant: -DIDX=uint -DTAPS_FASTEST=1
// check-variant: -DELEM=ulong -DWORDS=2 -DWGS=64
// check-variant: -DELEM=ulong -DWORDS=2 -DIDX=uint
// check-variant: -DHALF=1 -DIDX=uint
// check-variant: -DTYPE=double -DACC=double
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1 -DPV=2
// check-variant: -DHALF=1 -DIDX=uint -DPV=4
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1

#ifndef WGS
#define WGS 256          // work-items per group
#endif
#ifndef ELEM
#define ELEM uint        // im2col: one word of an element's bits
#endif
#ifndef WORDS
#define WORDS 1          // im2col: words per element
#endif
#ifndef TAPS_FASTEST
#define TAPS_FASTEST 0   // im2col: 1 the pixel-major matrix (taps fastest), 0 CLBlast's (pixels fastest)
#endif
#ifndef PV
#define PV 1             // im2col (TAPS_FASTEST 0, WORDS 1): consecutive pixels per work-item, stored as one pack;
                         // col2im: consecutive image elements of a row per work-item
#endif
#ifndef IDX
#define IDX ulong        // the type of the index arithmetic: uint where every index fits (faster divisions)
#endif
#ifndef HALF
#define HALF 0           // col2im: 1 half storage, summed in float
#endif
#ifndef COMPLEX
#define COMPLEX 0        // col2im: TYPE is a float2 / double2 pair
#endif
#ifndef TYPE
#if HALF
#define TYPE half
#else
#define TYPE float       // col2im: the storage type
#endif
#endif
#ifndef REAL
#define REAL float       // col2im: the real type of a complex TYPE
#endif
#ifndef ACC
#if COMPLEX
#define ACC TYPE
#else
#define ACC float        // col2im: the sum's type
#endif
#endif

#if COMPLEX
#define ACC_ZERO OPTUNE_SPLAT(REAL, 2, 0)
#else
#define ACC_ZERO ((ACC)0)
#endif
#if HALF
#define LOAD(p, i) vload_half((i), (p))
#define STORE(p, i, v) vstore_half((v), (i), (p))
#else
#define LOAD(p, i) ((p)[i])
#define STORE(p, i, v) ((p)[i] = (v))
#endif

// Copies what tap (r, s) of channel c of patch (n, oy, ox) reads (0 in the
// padding) to element `to` of col.
OPTUNE_FUNC void im2col_tap(const int H, const int W, const int SH, const int SW, const int DH, const int DW,
                            const int PT, const int PL, const int flip, const int R, const int S, int r, int s,
                            const ulong at, const ulong sy, const ulong sx, const int oy, const int ox,
                            __global const ELEM* in, __global ELEM* col, const ulong to) {
  if (flip) {
    r = R - 1 - r;
    s = S - 1 - s;
  }
  const long iy = (long)oy * SH - PT + (long)r * DH, ix = (long)ox * SW - PL + (long)s * DW;
  const bool inside = iy >= 0 && iy < H && ix >= 0 && ix < W;
  const ulong from = (at + (inside ? (ulong)iy * sy + (ulong)ix * sx : 0)) * WORDS;
  for (int w = 0; w < WORDS; ++w) col[to * WORDS + w] = inside ? in[from + w] : (ELEM)0;
}

// TAPS_FASTEST 1: a work-item per matrix element. 0: a work-item per
// (channel, pixel), pixel fastest, looping over the R S taps (each tap's
// row written by consecutive work-items), so the index arithmetic is paid
// once per R S elements; with PV > 1, per (channel, PV consecutive pixels):
// the pixels' coordinates found once (one division, then steps that wrap
// rows and images), and each tap's PV elements gathered one by one and
// stored as one pack (the host asks for PV only where the matrix's offset
// and the pixels of an image set are multiples of it, so every pack is
// aligned and lies in one row of the matrix). Each element still costs its
// bounds test and load, but its division, its 64-bit index and its store
// are shared: f32's elements are 4 bytes, and the one-pixel form ran
// f32 at 0.39 of the copy ceiling on the H200 against f64's 0.73.
#if !TAPS_FASTEST && PV > 1
#if WORDS != 1
#error "im2col: PV > 1 needs one word per element"
#endif
OPTUNE_FUNC void im2col_packs(const int CH, const int H, const int W, const int OH, const int OW, const int R,
                              const int S, const int SH, const int SW, const int DH, const int DW, const int PT,
                              const int PL, const int flip, const ulong pixels, const ulong sn, const ulong sc,
                              const ulong sy, const ulong sx, __global const ELEM* in, const ulong in_off,
                              __global ELEM* col, const ulong col_off) {
  const ulong packs = pixels / PV, rs = (ulong)R * (ulong)S, step = get_global_size(0);
  for (ulong id = get_global_id(0); id < (ulong)CH * packs; id += step) {
    const IDX c = (IDX)id / (IDX)packs, p0 = ((IDX)id % (IDX)packs) * (IDX)PV;
    int ox = (int)(p0 % (IDX)OW);
    const IDX q = p0 / (IDX)OW;
    int oy = (int)(q % (IDX)OH);
    ulong at = in_off + (ulong)(q / (IDX)OH) * sn + (ulong)c * sc;
    int oxs[PV], oys[PV];
    ulong ats[PV];
#pragma unroll
    for (int k = 0; k < PV; ++k) {
      oxs[k] = ox, oys[k] = oy, ats[k] = at;
      if (++ox == OW) {
        ox = 0;
        if (++oy == OH) oy = 0, at += sn;
      }
    }
    const ulong first = (col_off + (ulong)c * rs * pixels + (ulong)p0) / PV;
    if (SW == 1 && sx == 1 && oys[PV - 1] == oys[0] && ats[PV - 1] == ats[0]) {
      // Stride 1 along a contiguous row, the pack inside one output row (the
      // same for every pack where OW is a multiple of PV): the PV elements
      // of a tap share their input row, and their columns are consecutive.
      for (int r = 0; r < R; ++r) {
        const int rr = flip ? R - 1 - r : r;
        const long iy = (long)oys[0] * SH - PT + (long)rr * DH;
        const bool row_in = iy >= 0 && iy < H;
        const ulong row = ats[0] + (row_in ? (ulong)iy * sy : 0);
        for (int s = 0; s < S; ++s) {
          const int ss = flip ? S - 1 - s : s;
          const long ix0 = (long)oxs[0] - PL + (long)ss * DW;
          ELEM v[PV];
#pragma unroll
          for (int k = 0; k < PV; ++k) {
            const long ix = ix0 + k;
            v[k] = row_in && ix >= 0 && ix < W ? in[row + (ulong)ix] : (ELEM)0;
          }
          OPTUNE_GSTORE(ELEM, PV, OPTUNE_VPACK(ELEM, PV, v), first + (ulong)(r * S + s) * (pixels / PV), col);
        }
      }
      continue;
    }
    for (int r = 0; r < R; ++r) {
      const int rr = flip ? R - 1 - r : r;
      for (int s = 0; s < S; ++s) {
        const int ss = flip ? S - 1 - s : s;
        ELEM v[PV];
#pragma unroll
        for (int k = 0; k < PV; ++k) {
          const long iy = (long)oys[k] * SH - PT + (long)rr * DH, ix = (long)oxs[k] * SW - PL + (long)ss * DW;
          const bool inside = iy >= 0 && iy < H && ix >= 0 && ix < W;
          v[k] = inside ? in[ats[k] + (ulong)iy * sy + (ulong)ix * sx] : (ELEM)0;
        }
        OPTUNE_GSTORE(ELEM, PV, OPTUNE_VPACK(ELEM, PV, v), first + (ulong)(r * S + s) * (pixels / PV), col);
      }
    }
  }
}
#endif

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void im2col(const int CH, const int H, const int W, const int OH, const int OW, const int R, const int S, const int SH,
            const int SW, const int DH, const int DW, const int PT, const int PL, const int flip, const ulong images,
            const ulong sn, const ulong sc, const ulong sy, const ulong sx, __global const ELEM* in,
            const ulong in_off, __global ELEM* col, const ulong col_off) {
  const ulong rs = (ulong)R * (ulong)S, pixels = images * (ulong)OH * (ulong)OW, step = get_global_size(0);
#if !TAPS_FASTEST && PV > 1
  (void)rs, (void)step;
  im2col_packs(CH, H, W, OH, OW, R, S, SH, SW, DH, DW, PT, PL, flip, pixels, sn, sc, sy, sx, in, in_off, col, col_off);
  return;
#endif
#if TAPS_FASTEST
  const ulong taps = (ulong)CH * rs;
  for (ulong id = get_global_id(0); id < taps * pixels; id += step) {
    const IDX j = (IDX)id % (IDX)taps, p = (IDX)id / (IDX)taps;
    const int s = (int)(j % (IDX)S);
    const IDX t = j / (IDX)S;
    const int r = (int)(t % (IDX)R);
    const IDX c = t / (IDX)R;
#else
  for (ulong id = get_global_id(0); id < (ulong)CH * pixels; id += step) {
    const IDX p = (IDX)id % (IDX)pixels, c = (IDX)id / (IDX)pixels;
#endif
    const int ox = (int)(p % (IDX)OW);
    const IDX q = p / (IDX)OW;
    const int oy = (int)(q % (IDX)OH);
    const ulong at = in_off + (ulong)(q / (IDX)OH) * sn + (ulong)c * sc;
#if TAPS_FASTEST
    im2col_tap(H, W, SH, SW, DH, DW, PT, PL, flip, R, S, r, s, at, sy, sx, oy, ox, in, col, col_off + id);
#else
    const ulong first = col_off + (ulong)c * rs * pixels + (ulong)p;
    for (int r = 0; r < R; ++r)
      for (int s = 0; s < S; ++s)
        im2col_tap(H, W, SH, SW, DH, DW, PT, PL, flip, R, S, r, s, at, sy, sx, oy, ox, in, col,
                   first + (ulong)(r * S + s) * pixels);
#endif
  }
}

// col2im: a work-item per PV consecutive elements of an image row (the last
// pack of a row may hang past it: those elements are neither read nor
// written), each element's sum over its taps in the same order whatever PV.
// Stride 1 (the same for every work-item) takes a loop with no division: a
// tap's patch row and column are ty and tx themselves, the row's part paid
// once per pack (H200, f32: 286 -> 192 us with PV 1 alone).
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void col2im(const int C, const int H, const int W, const int OH, const int OW, const int R, const int S, const int SH,
            const int SW, const int DH, const int DW, const int PT, const int PL, const int flip,
            __global const TYPE* col, const ulong col_off, __global TYPE* im, const ulong im_off) {
  const ulong xb = ((ulong)W + PV - 1) / PV, total = (ulong)C * (ulong)H * xb, step = get_global_size(0);
  const ulong plane = (ulong)OH * (ulong)OW;
  for (ulong id = get_global_id(0); id < total; id += step) {
    const int x0 = (int)((IDX)id % (IDX)xb) * PV;
    const IDX t = (IDX)id / (IDX)xb;
    const int y = (int)(t % (IDX)H);
    const ulong c = (ulong)(t / (IDX)H);
    ACC sum[PV];
#pragma unroll
    for (int k = 0; k < PV; ++k) sum[k] = ACC_ZERO;
    if (SH == 1 && SW == 1) {
      for (int r = 0; r < R; ++r) {
        const long ty = (long)y + PT - (long)r * DH;
        if (ty < 0) break;
        if (ty >= OH) continue;
        const int kr = flip ? R - 1 - r : r;
        const ulong row_at = col_off + (ulong)ty * (ulong)OW;
        for (int s = 0; s < S; ++s) {
          const long tx0 = (long)x0 + PL - (long)s * DW;
          if (tx0 + PV - 1 < 0) break;  // every element's column is left of the grid, and stays so
          const int ks = flip ? S - 1 - s : s;
          const ulong at = ((c * (ulong)R + (ulong)kr) * (ulong)S + (ulong)ks) * plane + row_at;
#pragma unroll
          for (int k = 0; k < PV; ++k)
            if (tx0 + k >= 0 && tx0 + k < OW) sum[k] += LOAD(col, at + (ulong)(tx0 + k));
        }
      }
    } else {
      for (int k = 0; k < PV; ++k) {
        const int x = x0 + k;
        if (x >= W) break;
        // Tap r reads row y when y + PT - r DH is a multiple of SH below OH SH;
        // it falls with r, so the first negative one ends the loop. Once it is
        // not negative it is at most y + PT, an int (the host keeps H + 2 PT so).
        for (int r = 0; r < R; ++r) {
          const long tyl = (long)y + PT - (long)r * DH;
          if (tyl < 0) break;
          const int ty = (int)tyl;
          if (ty % SH != 0 || ty / SH >= OH) continue;
          const ulong row_at = (ulong)(ty / SH) * (ulong)OW;
          for (int s = 0; s < S; ++s) {
            const long txl = (long)x + PL - (long)s * DW;
            if (txl < 0) break;
            const int tx = (int)txl;
            if (tx % SW != 0 || tx / SW >= OW) continue;
            const int kr = flip ? R - 1 - r : r, ks = flip ? S - 1 - s : s;
            const ulong row = (c * (ulong)R + (ulong)kr) * (ulong)S + (ulong)ks;
            sum[k] += LOAD(col, col_off + row * plane + row_at + (ulong)(tx / SW));
          }
        }
      }
    }
    const ulong at = im_off + (c * (ulong)H + (ulong)y) * (ulong)W + (ulong)x0;
#pragma unroll
    for (int k = 0; k < PV; ++k)
      if (x0 + k < W) STORE(im, at + (ulong)k, LOAD(im, at + (ulong)k) + sum[k]);
  }
}
