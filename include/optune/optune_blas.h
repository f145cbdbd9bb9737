/* optune C API, BLAS: levels 1, 2 and 3 and CLBlast's extras in s, d, c, z
 * (and h), on device buffers, with the conventions of optune.h (statuses,
 * handles, wait lists and events, sizes in elements). optune.h includes it;
 * on its own it includes optune.h first.
 */
#ifndef OPTUNE_OPTUNE_BLAS_H
#define OPTUNE_OPTUNE_BLAS_H

#include "optune.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- BLAS level 1 (optune/blas.hpp: semantics, increments, results) ----
 * Vectors are buffers of f32, f64, c32 or c64 (views: their offset is the
 * vector's) with an increment of any sign. Reductions write one element into
 * `result` at its view's offset: dot/dotu/dotc/sum of x's dtype, asum/nrm2 of
 * its real type, iamax/iamin an i32 0-based index. Complex scalars are
 * optune_complex; for real vectors their imaginary part must be 0. */
typedef struct optune_complex {
  double re, im;
} optune_complex;
/* Half precision: every BLAS routine below that the reference defines for
 * real types (levels 1, 2 and 3 besides herk / her2k / hemm, and the extras)
 * also takes OPTUNE_F16 buffers (f16 storage, f32 arithmetic, each result
 * rounded to half once; asum and nrm2 write an f16 result); the
 * optune_complex scalars reach the kernels as f32. */

optune_status optune_blas_swap(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y,
                               int64_t incy, const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_scal(optune_queue queue, int64_t n, optune_complex alpha, optune_buffer x, int64_t incx,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
/* csscal, zdscal: a complex x times a real alpha, part by part. */
optune_status optune_blas_rscal(optune_queue queue, int64_t n, double alpha, optune_buffer x, int64_t incx,
                                const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_copy(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y,
                               int64_t incy, const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_axpy(optune_queue queue, int64_t n, optune_complex alpha, optune_buffer x, int64_t incx,
                               optune_buffer y, int64_t incy, const optune_event* wait_list, size_t wait_count,
                               optune_event* event);
/* dot: real vectors; dotu (x . y) and dotc (conj(x) . y): complex ones. */
optune_status optune_blas_dot(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y,
                              int64_t incy, optune_buffer result, const optune_event* wait_list, size_t wait_count,
                              optune_event* event);
optune_status optune_blas_dotu(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y,
                               int64_t incy, optune_buffer result, const optune_event* wait_list, size_t wait_count,
                               optune_event* event);
optune_status optune_blas_dotc(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y,
                               int64_t incy, optune_buffer result, const optune_event* wait_list, size_t wait_count,
                               optune_event* event);
optune_status optune_blas_nrm2(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer result,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_asum(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer result,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_sum(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer result,
                              const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_iamax(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer result,
                                const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_iamin(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer result,
                                const optune_event* wait_list, size_t wait_count, optune_event* event);
/* x = c x + s y, y = c y - s x (real c, s; csrot/zdrot on complex vectors). */
optune_status optune_blas_rot(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y,
                              int64_t incy, double c, double s, const optune_event* wait_list, size_t wait_count,
                              optune_event* event);
/* param: flag, h11, h21, h12, h22 (rotmg's output); f32 and f64 vectors. */
optune_status optune_blas_rotm(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y,
                               int64_t incy, const double* param, const optune_event* wait_list, size_t wait_count,
                               optune_event* event);
/* On the host, in place, as netlib's (complex values as re, im pairs). */
optune_status optune_blas_srotg(float* a, float* b, float* c, float* s);
optune_status optune_blas_drotg(double* a, double* b, double* c, double* s);
optune_status optune_blas_crotg(float* a, const float* b, float* c, float* s);
optune_status optune_blas_zrotg(double* a, const double* b, double* c, double* s);
optune_status optune_blas_srotmg(float* d1, float* d2, float* x1, float y1, float* param);
optune_status optune_blas_drotmg(double* d1, double* d2, double* x1, double y1, double* param);

/* ---- BLAS level 2, triangular (optune/blas2_triangular.hpp) ----
 * x = op(A) x (trmv, tbmv, tpmv) or the solve op(A) x = b in place (trsv,
 * tbsv, tpsv); a (ap: packed) and x of one dtype (f32, f64, c32, c64).
 * uplo: 0 upper, 1 lower; trans: 0 no, 1 transpose, 2 conjugate transpose;
 * diag: 0 non-unit, 1 unit (the values of optune::Triangle, BlasTranspose
 * and Diagonal). Errors name netlib's xerbla positions. */
optune_status optune_blas_trmv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_tbmv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, int64_t k, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_tpmv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, optune_buffer ap, optune_buffer x, int64_t incx,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_trsv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_tbsv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, int64_t k, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_tpsv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, optune_buffer ap, optune_buffer x, int64_t incx,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);

/* ---- CLBlast's extras (optune/blas_extra.hpp) ----
 * had: z = alpha x .* y + beta z (beta 0: z not read); omatcopy: B = alpha
 * op(A), A m x n (trans as above: 0, 1, 2); axpy_batched: y_b = alphas[b] x_b
 * + y_b for b < batch, x_b at x_offsets[b] elements from x's view (y_b
 * likewise). Scalars' imaginary parts must be 0 for real data. */
optune_status optune_blas_had(optune_queue queue, int64_t n, optune_complex alpha, optune_buffer x, int64_t incx,
                              optune_buffer y, int64_t incy, optune_complex beta, optune_buffer z, int64_t incz,
                              const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_omatcopy(optune_queue queue, optune_layout layout, int32_t trans, int64_t m, int64_t n,
                                   optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer b, int64_t ldb,
                                   const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_axpy_batched(optune_queue queue, int64_t n, const optune_complex* alphas, optune_buffer x,
                                       const int64_t* x_offsets, int64_t incx, optune_buffer y,
                                       const int64_t* y_offsets, int64_t incy, size_t batch,
                                       const optune_event* wait_list, size_t wait_count, optune_event* event);
/* im2col: the patch matrix col ((channels kernel_h kernel_w) x (output height
 * x width), row-major) of one image im (channels x height x width); col2im
 * adds such a matrix back into im (im += the patches' sums). kernel_mode 0
 * cross-correlation, 1 convolution (kernel flipped). Types f16, f32, f64,
 * c32, c64; im and col of one type. */
optune_status optune_blas_im2col(optune_queue queue, int32_t kernel_mode, int64_t channels, int64_t height,
                                 int64_t width, int64_t kernel_h, int64_t kernel_w, int64_t pad_h, int64_t pad_w,
                                 int64_t stride_h, int64_t stride_w, int64_t dilation_h, int64_t dilation_w,
                                 optune_buffer im, optune_buffer col, const optune_event* wait_list, size_t wait_count,
                                 optune_event* event);
optune_status optune_blas_col2im(optune_queue queue, int32_t kernel_mode, int64_t channels, int64_t height,
                                 int64_t width, int64_t kernel_h, int64_t kernel_w, int64_t pad_h, int64_t pad_w,
                                 int64_t stride_h, int64_t stride_w, int64_t dilation_h, int64_t dilation_w,
                                 optune_buffer col, optune_buffer im, const optune_event* wait_list, size_t wait_count,
                                 optune_event* event);

/* ---- BLAS level 3 (optune/gemm.hpp, optune/blas3.hpp) ----
 * optune_gemm and optune_gemm_strided_batched with complex alpha and beta
 * (cgemm, zgemm; for real matrices the imaginary parts must be 0). */
optune_status optune_blas_gemm(optune_queue queue, optune_layout layout, optune_transpose trans_a,
                               optune_transpose trans_b, int64_t m, int64_t n, int64_t k, optune_complex alpha,
                               optune_buffer a, int64_t lda, optune_buffer b, int64_t ldb, optune_complex beta,
                               optune_buffer c, int64_t ldc, const optune_event* wait_list, size_t wait_count,
                               optune_event* event);
optune_status optune_blas_gemm_strided_batched(optune_queue queue, optune_layout layout, optune_transpose trans_a,
                                               optune_transpose trans_b, int64_t m, int64_t n, int64_t k,
                                               optune_complex alpha, optune_buffer a, int64_t lda, int64_t stride_a,
                                               optune_buffer b, int64_t ldb, int64_t stride_b, optune_complex beta,
                                               optune_buffer c, int64_t ldc, int64_t stride_c, int64_t batch,
                                               const optune_event* wait_list, size_t wait_count,
                                               optune_event* event);

/* symm (f32, f64, c32, c64) and hemm (c32, c64): C = alpha A B + beta C
 * (OPTUNE_LEFT, A m x m) or alpha B A + beta C (OPTUNE_RIGHT, A n x n), only
 * A's `uplo` triangle read (optune/blas3.hpp); alpha and beta with imaginary
 * parts 0 for real matrices. Errors name the argument and its position in
 * netlib's xSYMM list. */
/* ---- BLAS level 3, triangular and rank-k (optune/blas3_triangular.hpp,
 * optune/blas3_complex.hpp) ----
 * syrk, syr2k, trmm, trsm and strided-batched trsm on f32, f64, c32 and c64
 * matrices (views carry their offsets); herk and her2k on c32 and c64.
 * alpha and beta are optune_complex whose imaginary parts must be 0 for real
 * types; herk's alpha and beta and her2k's beta are real. trans:
 * OPTUNE_NO_TRANS, OPTUNE_TRANS or 2 (conjugate transpose; the reference's
 * 'C', which real matrices take as 'T'; complex syrk and syr2k take 0 or 1,
 * herk and her2k 0 or 2). Errors name the argument and its position in
 * netlib's list. */
/* ---- BLAS level 2, general and symmetric / Hermitian (optune/blas2.hpp) ----
 * Matrices (a; ap packed) and vectors are buffers of one dtype (f32, f64, c32,
 * c64) with CLBlast's argument order; increments of either sign, not 0.
 * Complex scalars are optune_complex (imaginary part 0 for real matrices);
 * syr, spr, her and hpr take a real alpha. */
typedef enum optune_blas_transpose {
  OPTUNE_BLAS_NO_TRANS = 0,
  OPTUNE_BLAS_TRANS = 1,
  OPTUNE_BLAS_CONJ_TRANS = 2, /* A^H; A^T on real matrices */
  OPTUNE_BLAS_TRANSPOSE_FORCE_INT = 0x7fffffff
} optune_blas_transpose;
typedef enum optune_triangle {
  OPTUNE_UPPER = 0,
  OPTUNE_LOWER = 1,
  OPTUNE_TRIANGLE_FORCE_INT = 0x7fffffff
} optune_triangle;
typedef enum optune_diagonal {
  OPTUNE_NON_UNIT = 0,
  OPTUNE_UNIT = 1,
  OPTUNE_DIAGONAL_FORCE_INT = 0x7fffffff
} optune_diagonal;
typedef enum optune_side {
  OPTUNE_LEFT = 0,
  OPTUNE_RIGHT = 1,
  OPTUNE_SIDE_FORCE_INT = 0x7fffffff
} optune_side;
optune_status optune_blas_symm(optune_queue queue, optune_layout layout, optune_side side, optune_triangle uplo,
                               int64_t m, int64_t n, optune_complex alpha, optune_buffer a, int64_t lda,
                               optune_buffer b, int64_t ldb, optune_complex beta, optune_buffer c, int64_t ldc,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_hemm(optune_queue queue, optune_layout layout, optune_side side, optune_triangle uplo,
                               int64_t m, int64_t n, optune_complex alpha, optune_buffer a, int64_t lda,
                               optune_buffer b, int64_t ldb, optune_complex beta, optune_buffer c, int64_t ldc,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);

optune_status optune_blas_syrk(optune_queue queue, optune_layout layout, optune_triangle uplo,
                               optune_transpose trans, int64_t n, int64_t k, optune_complex alpha, optune_buffer a,
                               int64_t lda, optune_complex beta, optune_buffer c, int64_t ldc,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_syr2k(optune_queue queue, optune_layout layout, optune_triangle uplo,
                                optune_transpose trans, int64_t n, int64_t k, optune_complex alpha, optune_buffer a,
                                int64_t lda, optune_buffer b, int64_t ldb, optune_complex beta, optune_buffer c,
                                int64_t ldc, const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_herk(optune_queue queue, optune_layout layout, optune_triangle uplo,
                               optune_transpose trans, int64_t n, int64_t k, double alpha, optune_buffer a,
                               int64_t lda, double beta, optune_buffer c, int64_t ldc,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_her2k(optune_queue queue, optune_layout layout, optune_triangle uplo,
                                optune_transpose trans, int64_t n, int64_t k, optune_complex alpha, optune_buffer a,
                                int64_t lda, optune_buffer b, int64_t ldb, double beta, optune_buffer c,
                                int64_t ldc, const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_trmm(optune_queue queue, optune_layout layout, optune_side side, optune_triangle uplo,
                               optune_transpose trans_a, optune_diagonal diag, int64_t m, int64_t n,
                               optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer b, int64_t ldb,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_trsm(optune_queue queue, optune_layout layout, optune_side side, optune_triangle uplo,
                               optune_transpose trans_a, optune_diagonal diag, int64_t m, int64_t n,
                               optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer b, int64_t ldb,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_trsm_strided_batched(optune_queue queue, optune_layout layout, optune_side side,
                                               optune_triangle uplo, optune_transpose trans_a, optune_diagonal diag,
                                               int64_t m, int64_t n, optune_complex alpha, optune_buffer a,
                                               int64_t lda, int64_t stride_a, optune_buffer b, int64_t ldb,
                                               int64_t stride_b, int64_t batch, const optune_event* wait_list,
                                               size_t wait_count, optune_event* event);

optune_status optune_blas_gemv(optune_queue queue, optune_layout layout, optune_blas_transpose trans, int64_t m,
                               int64_t n, optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer x,
                               int64_t incx, optune_complex beta, optune_buffer y, int64_t incy,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_gbmv(optune_queue queue, optune_layout layout, optune_blas_transpose trans, int64_t m,
                               int64_t n, int64_t kl, int64_t ku, optune_complex alpha, optune_buffer a, int64_t lda,
                               optune_buffer x, int64_t incx, optune_complex beta, optune_buffer y, int64_t incy,
                               const optune_event* wait_list, size_t wait_count, optune_event* event);
/* symv (f32, f64), hemv (c32, c64); sbmv / hbmv with k; spmv / hpmv packed. */
optune_status optune_blas_symv(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n,
                               optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               optune_complex beta, optune_buffer y, int64_t incy, const optune_event* wait_list,
                               size_t wait_count, optune_event* event);
optune_status optune_blas_hemv(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n,
                               optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               optune_complex beta, optune_buffer y, int64_t incy, const optune_event* wait_list,
                               size_t wait_count, optune_event* event);
optune_status optune_blas_sbmv(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n, int64_t k,
                               optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               optune_complex beta, optune_buffer y, int64_t incy, const optune_event* wait_list,
                               size_t wait_count, optune_event* event);
optune_status optune_blas_hbmv(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n, int64_t k,
                               optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               optune_complex beta, optune_buffer y, int64_t incy, const optune_event* wait_list,
                               size_t wait_count, optune_event* event);
optune_status optune_blas_spmv(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n,
                               optune_complex alpha, optune_buffer ap, optune_buffer x, int64_t incx,
                               optune_complex beta, optune_buffer y, int64_t incy, const optune_event* wait_list,
                               size_t wait_count, optune_event* event);
optune_status optune_blas_hpmv(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n,
                               optune_complex alpha, optune_buffer ap, optune_buffer x, int64_t incx,
                               optune_complex beta, optune_buffer y, int64_t incy, const optune_event* wait_list,
                               size_t wait_count, optune_event* event);
/* ger (f32, f64), geru and gerc (c32, c64). */
optune_status optune_blas_ger(optune_queue queue, optune_layout layout, int64_t m, int64_t n, optune_complex alpha,
                              optune_buffer x, int64_t incx, optune_buffer y, int64_t incy, optune_buffer a,
                              int64_t lda, const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_geru(optune_queue queue, optune_layout layout, int64_t m, int64_t n, optune_complex alpha,
                               optune_buffer x, int64_t incx, optune_buffer y, int64_t incy, optune_buffer a,
                               int64_t lda, const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_gerc(optune_queue queue, optune_layout layout, int64_t m, int64_t n, optune_complex alpha,
                               optune_buffer x, int64_t incx, optune_buffer y, int64_t incy, optune_buffer a,
                               int64_t lda, const optune_event* wait_list, size_t wait_count, optune_event* event);
/* syr, spr (f32, f64), her, hpr (c32, c64): real alpha. */
optune_status optune_blas_syr(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n, double alpha,
                              optune_buffer x, int64_t incx, optune_buffer a, int64_t lda,
                              const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_her(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n, double alpha,
                              optune_buffer x, int64_t incx, optune_buffer a, int64_t lda,
                              const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_blas_spr(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n, double alpha,
                              optune_buffer x, int64_t incx, optune_buffer ap, const optune_event* wait_list,
                              size_t wait_count, optune_event* event);
optune_status optune_blas_hpr(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n, double alpha,
                              optune_buffer x, int64_t incx, optune_buffer ap, const optune_event* wait_list,
                              size_t wait_count, optune_event* event);
/* syr2, spr2 (f32, f64), her2, hpr2 (c32, c64). */
optune_status optune_blas_syr2(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n,
                               optune_complex alpha, optune_buffer x, int64_t incx, optune_buffer y, int64_t incy,
                               optune_buffer a, int64_t lda, const optune_event* wait_list, size_t wait_count,
                               optune_event* event);
optune_status optune_blas_her2(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n,
                               optune_complex alpha, optune_buffer x, int64_t incx, optune_buffer y, int64_t incy,
                               optune_buffer a, int64_t lda, const optune_event* wait_list, size_t wait_count,
                               optune_event* event);
optune_status optune_blas_spr2(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n,
                               optune_complex alpha, optune_buffer x, int64_t incx, optune_buffer y, int64_t incy,
                               optune_buffer ap, const optune_event* wait_list, size_t wait_count,
                               optune_event* event);
optune_status optune_blas_hpr2(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n,
                               optune_complex alpha, optune_buffer x, int64_t incx, optune_buffer y, int64_t incy,
                               optune_buffer ap, const optune_event* wait_list, size_t wait_count,
                               optune_event* event);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* OPTUNE_OPTUNE_BLAS_H */
