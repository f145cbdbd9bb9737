#define _POSIX_C_SOURCE 200809L
/* A C program timing SGEMM and DGEMM through CBLAS in a BLAS library named on
 * the command line (liboptune_blas.so.3, Debian's reference libblas.so.3,
 * OpenBLAS, ...), so one binary compares them on the same machine (issue 21:
 * "SGEMM and DGEMM 4096 from a C program"). Host matrices, column-major,
 * random in [-1, 1); C = A B (alpha 1, beta 0); one untimed call, then the
 * median of REPS calls. Prints one line per type:
 *   <library> sgemm n=<n>: <median us> us per call, <GFLOP/s> GFLOP/s
 * and exits 1 if C's first and last elements differ from their dot products
 * in double precision by more than n * 2^-20 (f32) or n * 2^-48 (f64).
 *
 *   optune_host_blas_gemm LIBRARY [N [REPS]]     (defaults 4096, 5)
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { kColMajor = 102, kNoTrans = 111 };
typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*,
                         int);
typedef void (*dgemm_fn)(int, int, int, int, int, int, double, const double*, int, const double*, int, double,
                         double*, int);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s LIBRARY [N [REPS]]\n", argv[0]);
    return 2;
  }
  const int n = argc > 2 ? atoi(argv[2]) : 4096, reps = argc > 3 ? atoi(argv[3]) : 5;
  if (n < 1 || reps < 1 || reps > 1000) {
    fprintf(stderr, "%s: N must be >= 1 and REPS in [1, 1000]\n", argv[0]);
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s: %s\n", argv[0], dlerror());
    return 1;
  }
  sgemm_fn sgemm = (sgemm_fn)dlsym(lib, "cblas_sgemm");
  dgemm_fn dgemm = (dgemm_fn)dlsym(lib, "cblas_dgemm");
  if (!sgemm || !dgemm) {
    fprintf(stderr, "%s: %s has no cblas_sgemm or cblas_dgemm\n", argv[0], argv[1]);
    return 1;
  }
  const size_t nn = (size_t)n * (size_t)n;
  float *as = malloc(nn * sizeof *as), *bs = malloc(nn * sizeof *bs), *cs = malloc(nn * sizeof *cs);
  double *ad = malloc(nn * sizeof *ad), *bd = malloc(nn * sizeof *bd), *cd = malloc(nn * sizeof *cd);
  double* t = malloc((size_t)reps * sizeof *t);
  if (!as || !bs || !cs || !ad || !bd || !cd || !t) {
    fprintf(stderr, "%s: out of memory for n = %d\n", argv[0], n);
    return 1;
  }
  srand(7);
  for (size_t i = 0; i < nn; ++i) {
    ad[i] = 2.0 * rand() / ((double)RAND_MAX + 1.0) - 1.0;
    bd[i] = 2.0 * rand() / ((double)RAND_MAX + 1.0) - 1.0;
    as[i] = (float)ad[i];
    bs[i] = (float)bd[i];
  }
  const double flops = 2.0 * (double)n * (double)n * (double)n;
  for (int type = 0; type < 2; ++type) {
    for (int r = -1; r < reps; ++r) {
      const double t0 = now();
      if (type == 0) sgemm(kColMajor, kNoTrans, kNoTrans, n, n, n, 1.0f, as, n, bs, n, 0.0f, cs, n);
      else dgemm(kColMajor, kNoTrans, kNoTrans, n, n, n, 1.0, ad, n, bd, n, 0.0, cd, n);
      if (r >= 0) t[r] = now() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, by_value);
    const double med = t[reps / 2];
    printf("%s %s n=%d: %.1f us per call, %.1f GFLOP/s\n", argv[1], type ? "dgemm" : "sgemm", n, med * 1e6,
           flops / med * 1e-9);
    for (int corner = 0; corner < 2; ++corner) {
      const size_t i = corner ? (size_t)n - 1 : 0, j = i;  /* C(0, 0) and C(n-1, n-1) */
      double want = 0, scale = 0;
      for (size_t l = 0; l < (size_t)n; ++l) {
        const double x = type ? ad[i + l * (size_t)n] * bd[l + j * (size_t)n]
                              : (double)as[i + l * (size_t)n] * (double)bs[l + j * (size_t)n];
        want += x;
        scale += x < 0 ? -x : x;
      }
      const double got = type ? cd[i + j * (size_t)n] : (double)cs[i + j * (size_t)n];
      const double tol = (double)n * (type ? 0x1p-48 : 0x1p-20) * (scale > 1 ? scale : 1);
      if (!(got - want <= tol && want - got <= tol)) {
        fprintf(stderr, "%s %s n=%d: C(%zu, %zu) = %.17g, want %.17g\n", argv[1], type ? "dgemm" : "sgemm", n, i, j,
                got, want);
        return 1;
      }
    }
  }
  return 0;
}
