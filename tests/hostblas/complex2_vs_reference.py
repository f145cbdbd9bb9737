#!/usr/bin/env python3
"""Complex level 2 of liboptune_blas.so.3 against Debian's reference BLAS.

    complex2_vs_reference.py LIBOPTUNE_BLAS [REFERENCE_LIBBLAS]

Calls every complex level-2 CBLAS function (c and z: gemv, gbmv, hemv, hbmv,
hpmv, trmv, tbmv, tpmv, trsv, tbsv, tpsv, geru, gerc, her, hpr, her2, hpr2)
of both libraries on the same random operands, in both layouts, every
transpose, uplo and diag, increments +-1 and +-2 and padded leading dimensions,
and compares every array the call is given (outputs, and inputs, which must
come back unchanged). What netlib's own test programs do not cover: Hermitian
diagonals with non-zero imaginary parts (read as real), beta = 0 over NaN in y,
sizes past their 9. The reference (netlib's libblas.so.3, Debian's libblas3:
REFERENCE_LIBBLAS, else the one in OPTUNE_NETLIB_BLAS_DIR, else Debian's
/usr/lib/x86_64-linux-gnu/blas/libblas.so.3) is loaded with RTLD_DEEPBIND so
that its CBLAS calls its own Fortran routines. Exits non-zero on any mismatch.
"""
import ctypes
import math
import os
import random
import sys

ROW, COL = 101, 102
NOTRANS, TRANS, CONJTRANS = 111, 112, 113
UPPER, LOWER = 121, 122
NONUNIT, UNIT = 131, 132


def load(path, deep):
    mode = os.RTLD_LOCAL | (os.RTLD_DEEPBIND if deep else 0)
    return ctypes.CDLL(path, mode=mode)


class Kind:
    def __init__(self, prefix, real, eps):
        self.prefix, self.real, self.eps = prefix, real, eps

    def arr(self, vals):
        a = (self.real * (2 * len(vals)))()
        for i, v in enumerate(vals):
            a[2 * i], a[2 * i + 1] = v.real, v.imag
        return a

    def scalar(self, z):
        return self.arr([z])


def values(a):
    return [complex(a[2 * i], a[2 * i + 1]) for i in range(len(a) // 2)]


def rnd(n):
    return [complex(random.uniform(-1, 1), random.uniform(-1, 1)) for _ in range(n)]


def cases(kind, seed):
    """Yields (description, size, call(lib) -> the arrays to compare) for the
    draw `seed`: its parameters, and operands drawn afresh (random, seeded
    with `seed`) at each call, so that both libraries get the same ones."""
    r = random.Random(seed)
    n, m, k = r.randint(1, 40), r.randint(1, 40), r.randint(0, 6)
    lay, ul = r.choice([ROW, COL]), r.choice([UPPER, LOWER])
    incx, incy = r.choice([1, 2, -1, -2]), r.choice([1, 2, -1, -2])
    alpha = complex(r.uniform(-1, 1), r.uniform(-1, 1))
    beta = r.choice([0j, 1 + 0j, complex(r.uniform(-1, 1), r.uniform(-1, 1))])
    ra = r.uniform(-1, 1)
    pad = r.randint(0, 3)
    tr, dg = r.choice([NOTRANS, TRANS, CONJTRANS]), r.choice([NONUNIT, UNIT])
    kl, ku = r.randint(0, 4), r.randint(0, 4)
    p, A = kind.prefix, kind.arr
    S = kind.scalar

    def yv(count):  # y, NaN where beta = 0 (the reference does not read it)
        return A([complex(math.nan, math.nan)] * count) if beta == 0 else A(rnd(count))

    def fn(lib, name):
        return getattr(lib, 'cblas_' + p + name)

    def gemv(lib):
        rows, cols, ld = m, n, (n if lay == ROW else m) + pad
        lx, ly = (cols, rows) if tr == NOTRANS else (rows, cols)
        a, x, y = A(rnd(ld * max(rows, cols))), A(rnd(lx * abs(incx))), yv(ly * abs(incy))
        fn(lib, 'gemv')(lay, tr, rows, cols, S(alpha), a, ld, x, incx, S(beta), y, incy)
        return a, x, y

    def gbmv(lib):
        ld = kl + ku + 1 + pad
        lx, ly = (n, m) if tr == NOTRANS else (m, n)
        a, x, y = A(rnd(ld * max(m, n))), A(rnd(lx * abs(incx))), yv(ly * abs(incy))
        fn(lib, 'gbmv')(lay, tr, m, n, kl, ku, S(alpha), a, ld, x, incx, S(beta), y, incy)
        return a, x, y

    def hemv(lib):
        a, x, y = A(rnd((n + pad) * n)), A(rnd(n * abs(incx))), yv(n * abs(incy))
        fn(lib, 'hemv')(lay, ul, n, S(alpha), a, n + pad, x, incx, S(beta), y, incy)
        return a, x, y

    def hbmv(lib):
        a, x, y = A(rnd((k + 1 + pad) * n)), A(rnd(n * abs(incx))), yv(n * abs(incy))
        fn(lib, 'hbmv')(lay, ul, n, k, S(alpha), a, k + 1 + pad, x, incx, S(beta), y, incy)
        return a, x, y

    def hpmv(lib):
        a, x, y = A(rnd(n * (n + 1) // 2)), A(rnd(n * abs(incx))), yv(n * abs(incy))
        fn(lib, 'hpmv')(lay, ul, n, S(alpha), a, x, incx, S(beta), y, incy)
        return a, x, y

    def triangular(name):
        def call(lib):
            x = A(rnd(n * abs(incx)))
            if name[1] == 'r':  # a dominant diagonal keeps the solves well conditioned
                v = rnd((n + pad) * n)
                for j in range(n):
                    v[j * (n + pad) + j] += 4
                a = A(v)
                fn(lib, name)(lay, ul, tr, dg, n, a, n + pad, x, incx)
            elif name[1] == 'b':
                v = rnd((k + 1 + pad) * n)
                diag = k if (ul == UPPER) == (lay == COL) else 0
                for j in range(n):
                    v[j * (k + 1 + pad) + diag] += 4
                a = A(v)
                fn(lib, name)(lay, ul, tr, dg, n, k, a, k + 1 + pad, x, incx)
            else:
                a = A([z + 4 for z in rnd(n * (n + 1) // 2)])
                fn(lib, name)(lay, ul, tr, dg, n, a, x, incx)
            return a, x
        return call

    def ger(name):
        def call(lib):
            ld = (n if lay == ROW else m) + pad
            a, x, y = A(rnd(ld * max(m, n))), A(rnd(m * abs(incx))), A(rnd(n * abs(incy)))
            fn(lib, name)(lay, m, n, S(alpha), x, incx, y, incy, a, ld)
            return a, x, y
        return call

    def her(lib):
        a, x = A(rnd((n + pad) * n)), A(rnd(n * abs(incx)))
        fn(lib, 'her')(lay, ul, n, kind.real(ra), x, incx, a, n + pad)
        return a, x

    def hpr(lib):
        a, x = A(rnd(n * (n + 1) // 2)), A(rnd(n * abs(incx)))
        fn(lib, 'hpr')(lay, ul, n, kind.real(ra), x, incx, a)
        return a, x

    def her2(lib):
        a, x, y = A(rnd((n + pad) * n)), A(rnd(n * abs(incx))), A(rnd(n * abs(incy)))
        fn(lib, 'her2')(lay, ul, n, S(alpha), x, incx, y, incy, a, n + pad)
        return a, x, y

    def hpr2(lib):
        a, x, y = A(rnd(n * (n + 1) // 2)), A(rnd(n * abs(incx))), A(rnd(n * abs(incy)))
        fn(lib, 'hpr2')(lay, ul, n, S(alpha), x, incx, y, incy, a)
        return a, x, y

    calls = [('gemv', gemv), ('gbmv', gbmv), ('hemv', hemv), ('hbmv', hbmv), ('hpmv', hpmv),
             ('geru', ger('geru')), ('gerc', ger('gerc')), ('her', her), ('hpr', hpr), ('her2', her2),
             ('hpr2', hpr2)]
    calls += [(t, triangular(t)) for t in ('trmv', 'tbmv', 'tpmv', 'trsv', 'tbsv', 'tpsv')]
    what = 'layout %d uplo %d trans %d diag %d m %d n %d k %d kl %d ku %d incx %d incy %d pad %d beta %s' % (
        lay, ul, tr, dg, m, n, k, kl, ku, incx, incy, pad, beta)
    for name, call in calls:
        yield 'cblas_%s%s (%s)' % (p, name, what), n + m, lambda lib, call=call: (random.seed(seed), call(lib))[1]


def compare(kind, ref_arrays, opt_arrays, size):
    """The largest difference over the arrays, relative to their largest
    reference element; NaN where one library has NaN and the other not."""
    worst, scale = 0.0, 1.0
    for r, o in zip(ref_arrays, opt_arrays):
        rv, ov = values(r), values(o)
        scale = max([scale] + [abs(z) for z in rv if not math.isnan(abs(z))])
        for a, b in zip(rv, ov):
            if math.isnan(abs(a)) != math.isnan(abs(b)):
                return math.nan
            if not math.isnan(abs(a)):
                worst = max(worst, abs(a - b))
    return worst / scale / (kind.eps * size)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    folder = os.environ.get('OPTUNE_NETLIB_BLAS_DIR', '/usr/lib/x86_64-linux-gnu/blas')
    ref_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(folder, 'libblas.so.3')
    if not os.path.exists(ref_path):
        sys.exit('complex2_vs_reference: %s not found: install Debian\'s libblas3 (scripts/setup.sh)' % ref_path)
    ref, opt = load(ref_path, True), load(sys.argv[1], False)
    draws = int(os.environ.get('OPTUNE_TEST_DRAWS', '40'))
    seeds = random.Random(20261125)
    failures = total = 0
    largest = 0.0
    for kind in (Kind('c', ctypes.c_float, 2.0 ** -24), Kind('z', ctypes.c_double, 2.0 ** -53)):
        for _ in range(draws):
            for what, size, call in cases(kind, seeds.getrandbits(64)):
                outs = [call(lib) for lib in (ref, opt)]
                ratio = compare(kind, outs[0], outs[1], size)
                total += 1
                largest = max(largest, ratio) if not math.isnan(ratio) else largest
                # 16 eps (m + n), as netlib's test programs' threshold (the
                # two summation orders differ by about 1 eps (m + n) here).
                if not ratio <= 16:
                    failures += 1
                    print('MISMATCH %s: ratio %s' % (what, ratio))
    print('complex2_vs_reference: %d calls, %d mismatches, largest error %.3g eps (m + n)' % (total, failures, largest))
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
