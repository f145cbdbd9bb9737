// blas_extra: CLBlast's extra routines on strided real and complex data,
// every entry point in one program per type and group size.
//
// Vectors: element i of x is x[xb + i * incx] (the host passes the base of
// element 0, so a negative increment walks backwards, as level 1's).
//
// extra_had (xHAD): z = alpha x .* y + beta z; with read_z 0 (beta == 0) z
// is not read, so NaN in z does not propagate. Grid-stride over n.
//
// extra_omatcopy (xOMATCOPY): B = alpha op(A), B rows x cols. The host gives
// both matrices' strides in B's indices (A's swapped when op transposes),
// and `col_fast` says whether B's column index is its contiguous one; each
// work-item writes one element, neighbours writing neighbours (coalesced
// writes; a transposed A is read with its stride). conj: op conjugates.
//
// extra_axpy_batched (AxpyBatched): y_b = alpha_b x_b + y_b for each batch
// b (dimension 1 of the grid); alphas (TYPE: float for half storage) and the
// bases of x_b and y_b come from device arrays the host wrote.
//
// check-prepend: blas/blas_storage.cl
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1
// check-variant: -DTYPE=double -DREAL=double
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DWGS=64
// check-variant: -DHALF=1

#ifndef WGS
#define WGS 256          // work-items per group
#endif

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void extra_had(const ulong n, const TYPE alpha, const TYPE beta, const int read_z, __global const ST* x,
               const ulong xb, const long incx, __global const ST* y, const ulong yb, const long incy,
               __global ST* z, const ulong zb, const long incz) {
  const ulong step = get_global_size(0);
  for (ulong i = get_global_id(0); i < n; i += step) {
    TYPE v = MUL(alpha, MUL(GET(x, xb, incx, i), GET(y, yb, incy, i)));
    if (read_z) v += MUL(beta, GET(z, zb, incz, i));
    PUT(z, zb, incz, i, v);
  }
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void extra_omatcopy(const ulong rows, const ulong cols, const TYPE alpha, const int conj, const int col_fast,
                    __global const ST* a, const ulong ab, const ulong a_rs, const ulong a_cs, __global ST* b,
                    const ulong bb, const ulong b_rs, const ulong b_cs) {
  const ulong total = rows * cols, step = get_global_size(0);
  for (ulong e = get_global_id(0); e < total; e += step) {
    const ulong i = col_fast ? e / cols : e % rows, j = col_fast ? e % cols : e / rows;
    const TYPE v = GET(a, ab + i * a_rs, a_cs, j);
    PUT(b, bb + i * b_rs, b_cs, j, MUL(alpha, conj ? CONJ(v) : v));
  }
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void extra_axpy_batched(const ulong n, __global const TYPE* alphas, __global const ulong* xbs, const long incx,
                        __global const ST* x, __global const ulong* ybs, const long incy, __global ST* y) {
  const ulong bt = get_global_id(1), step = get_global_size(0);
  const TYPE alpha = alphas[bt];
  const ulong xb = xbs[bt], yb = ybs[bt];
  for (ulong i = get_global_id(0); i < n; i += step) PUT(y, yb, incy, i, GET(y, yb, incy, i) + MUL(alpha, GET(x, xb, incx, i)));
}
