/* A C program through CBLAS (Debian's cblas.h) against liboptune_blas.so.3:
 * SGEMM and DGEMM in both layouts and every transpose at odd sizes, against
 * a double reference; beta = 0 over NaN; level-1 calls; argument errors
 * reaching this program's own cblas_xerbla and xerbla_ (the library finds
 * them through the dynamic linker). Exit status 0 when every check holds. */
#include <cblas.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                   \
  do {                                     \
    if (!(cond)) {                         \
      printf("FAILED: " __VA_ARGS__);      \
      printf("\n");                        \
      ++failures;                          \
    }                                      \
  } while (0)

/* The last error the library reported through the handlers below. */
static int last_info = 0;
static char last_rout[32];

void cblas_xerbla(int info, const char* rout, const char* form, ...) {
  (void)form;
  last_info = info;
  snprintf(last_rout, sizeof last_rout, "%s", rout);
}

void xerbla_(const char* srname, const int* info, size_t len) {
  last_info = *info;
  while (len > 0 && srname[len - 1] == ' ') --len; /* Fortran pads names with blanks */
  snprintf(last_rout, sizeof last_rout, "%.*s", (int)(len < 31 ? len : 31), srname);
}

static double rnd(void) { return (double)rand() / RAND_MAX - 0.5; }

/* Element (i, j) of a stored matrix. */
static size_t at(int row_major, int i, int j, int ld) { return row_major ? (size_t)i * ld + j : i + (size_t)j * ld; }

/* pad: leading dimensions 2, 1 and 3 beyond the rows (columns), else exact. */
static void check_gemm(int row_major, int ta, int tb, int m, int n, int k, int dbl, int pad) {
  const int lda = (row_major ? (ta ? m : k) : (ta ? k : m)) + 2 * pad;
  const int ldb = (row_major ? (tb ? k : n) : (tb ? n : k)) + pad;
  const int ldc = (row_major ? n : m) + 3 * pad;
  const int arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
  const size_t asz = (size_t)lda * (row_major ? arows : acols), bsz = (size_t)ldb * (row_major ? brows : bcols);
  const size_t csz = (size_t)ldc * (row_major ? m : n);
  double* a = malloc(asz * sizeof *a);
  double* b = malloc(bsz * sizeof *b);
  double* c = malloc(csz * sizeof *c);
  float* af = malloc(asz * sizeof *af);
  float* bf = malloc(bsz * sizeof *bf);
  float* cf = malloc(csz * sizeof *cf);
  double* want = malloc(csz * sizeof *want);
  const double alpha = 0.75, beta = (m + n) % 2 ? 0.0 : -1.25;
  for (size_t i = 0; i < asz; ++i) af[i] = (float)(a[i] = rnd());
  for (size_t i = 0; i < bsz; ++i) bf[i] = (float)(b[i] = rnd());
  for (size_t i = 0; i < csz; ++i) {
    cf[i] = (float)(c[i] = beta == 0.0 ? NAN : rnd());
    want[i] = c[i];
  }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p) {
        const double x = dbl ? a[at(row_major, ta ? p : i, ta ? i : p, lda)] : af[at(row_major, ta ? p : i, ta ? i : p, lda)];
        const double y = dbl ? b[at(row_major, tb ? j : p, tb ? p : j, ldb)] : bf[at(row_major, tb ? j : p, tb ? p : j, ldb)];
        s += x * y;
      }
      const size_t ij = at(row_major, i, j, ldc);
      want[ij] = alpha * s + (beta == 0.0 ? 0.0 : beta * (dbl ? c[ij] : (double)cf[ij]));
    }
  const CBLAS_LAYOUT layout = row_major ? CblasRowMajor : CblasColMajor;
  const CBLAS_TRANSPOSE opa = ta ? CblasTrans : CblasNoTrans, opb = tb ? CblasTrans : CblasNoTrans;
  if (dbl)
    cblas_dgemm(layout, opa, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  else
    cblas_sgemm(layout, opa, opb, m, n, k, (float)alpha, af, lda, bf, ldb, (float)beta, cf, ldc);
  double err = 0;
  int untouched_ok = 1;
  for (int i = 0; i < (row_major ? m : n); ++i)
    for (int j = 0; j < ldc; ++j) {
      const size_t ij = (size_t)i * ldc + j;
      const double got = dbl ? c[ij] : (double)cf[ij];
      if (j >= (row_major ? n : m)) { /* the gap between rows (columns) keeps its value */
        if (!(isnan(want[ij]) ? isnan(got) : got == (dbl ? want[ij] : (double)(float)want[ij]))) untouched_ok = 0;
        continue;
      }
      const double e = fabs(got - want[ij]);
      if (!(e <= err)) err = isnan(e) ? INFINITY : e;
    }
  const double tol = (dbl ? 1e-13 : 1e-5) * (k + 1);
  CHECK(err <= tol && untouched_ok, "%cgemm %s ta=%d tb=%d m=%d n=%d k=%d beta=%g: max error %g (tolerance %g)%s",
        dbl ? 'd' : 's', row_major ? "row-major" : "col-major", ta, tb, m, n, k, beta, err, tol,
        untouched_ok ? "" : ", padding changed");
  free(a); free(b); free(c); free(af); free(bf); free(cf); free(want);
}

int main(void) {
  srand(7);
  const int sizes[][3] = {{1, 1, 1}, {7, 5, 3}, {17, 9, 33}, {64, 65, 31}, {130, 129, 200}};
  for (int s = 0; s < 5; ++s)
    for (int rm = 0; rm < 2; ++rm)
      for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb)
          for (int d = 0; d < 2; ++d) check_gemm(rm, ta, tb, sizes[s][0], sizes[s][1], sizes[s][2], d, 1);
  /* Above the CPU's threshold for GEMM's tiled kernel (256^3), with leading
   * dimensions that allow its vector loads, on memory that malloc aligns to
   * 16 bytes only (these once faulted on PoCL). */
  check_gemm(0, 0, 0, 256, 256, 256, 0, 0);
  check_gemm(1, 1, 0, 256, 256, 256, 0, 0);

  /* Level 1: a dot with a negative increment, iamax, a complex dot. */
  float x[9], y[9];
  double want = 0;
  for (int i = 0; i < 9; ++i) { x[i] = (float)rnd(); y[i] = (float)rnd(); }
  for (int i = 0; i < 5; ++i) want += (double)x[2 * i] * y[8 - 2 * i]; /* y walked backwards */
  CHECK(fabs(cblas_sdot(5, x, 2, y, -2) - want) < 1e-6, "sdot with incy = -2");
  x[6] = 9.0f;
  CHECK(cblas_isamax(9, x, 1) == 6, "isamax: %zu, expected 6", (size_t)cblas_isamax(9, x, 1));
  double z[4] = {1, 2, 3, -1}, w[4] = {0.5, -1, 2, 4}, r[2] = {0, 0};
  cblas_zdotc_sub(2, z, 1, w, 1, r); /* conj(1+2i)(0.5-i) + conj(3-i)(2+4i) = (-1.5-2i) + (2+14i) */
  CHECK(fabs(r[0] - 0.5) < 1e-15 && fabs(r[1] - 12.0) < 1e-15, "zdotc_sub: (%g, %g), expected (0.5, 12)", r[0], r[1]);

  /* Errors: the layout through cblas_xerbla, M through xerbla_ (SGEMM's
   * third argument), neither touching C. */
  float a1 = 1, b1 = 1, c1 = 5;
  cblas_sgemm((CBLAS_LAYOUT)7, CblasNoTrans, CblasNoTrans, 1, 1, 1, 1.0f, &a1, 1, &b1, 1, 0.0f, &c1, 1);
  CHECK(last_info == 1 && strcmp(last_rout, "cblas_sgemm") == 0 && c1 == 5,
        "bad layout: info %d rout '%s'", last_info, last_rout);
  cblas_sgemm(CblasColMajor, CblasNoTrans, (CBLAS_TRANSPOSE)1, 1, 1, 1, 1.0f, &a1, 1, &b1, 1, 0.0f, &c1, 1);
  CHECK(last_info == 3 && strcmp(last_rout, "cblas_sgemm") == 0, "bad TransB: info %d", last_info);
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, -1, 1, 1, 1.0f, &a1, 1, &b1, 1, 0.0f, &c1, 1);
  CHECK(last_info == 3 && strcmp(last_rout, "SGEMM") == 0 && c1 == 5, "m < 0: info %d rout '%s'", last_info,
        last_rout);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 1, 1, 1.0, z, 1, w, 1, 0.0, r, 2);
  CHECK(last_info == 8 && strcmp(last_rout, "DGEMM") == 0, "lda < m: info %d rout '%s'", last_info, last_rout);

  if (failures) {
    printf("%d checks failed\n", failures);
    return 1;
  }
  printf("cblas_check: all checks passed\n");
  return 0;
}
