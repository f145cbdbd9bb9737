#!/usr/bin/env bash
# Runs one of netlib's BLAS test programs (Debian's libblas-test) against a
# BLAS library folder, and fails unless its summary says every routine passed.
#
#   run_netlib_blas.sh PROGRAM LIBDIR [DATADIR]
#
# PROGRAM: xblat1s ... xblat3z (Fortran interface), xscblat1 ... xzcblat3
# (CBLAS). LIBDIR holds the libblas.so.3 to test; it goes first in
# LD_LIBRARY_PATH, so the program, which names libblas.so.3, loads it in place
# of Debian's. Levels 2 and 3 read their parameters from DATADIR's input file
# (xblat2s: sblat2.in; xscblat2: sin2) and may write their summary to a file
# (sblat2.out), which is read too. DATADIR defaults to OPTUNE_NETLIB_BLAS_DIR,
# else Debian's /usr/lib/x86_64-linux-gnu/blas.
set -u
prog=$1
libdir=$2
datadir=${3:-${OPTUNE_NETLIB_BLAS_DIR:-/usr/lib/x86_64-linux-gnu/blas}}

if [ ! -x "$datadir/$prog" ]; then
  echo "run_netlib_blas: $datadir/$prog not found: install Debian's libblas-test (scripts/setup.sh)" >&2
  exit 1
fi
if [ ! -e "$libdir/libblas.so.3" ]; then
  echo "run_netlib_blas: $libdir/libblas.so.3 not found" >&2
  exit 1
fi
# Absolute: the program runs in a scratch folder.
libdir=$(cd "$libdir" && pwd)

# The input file of levels 2 and 3, from the program's name.
input=/dev/null
case $prog in
  xblat[23][sdcz]) input=$datadir/${prog:6:1}blat${prog:5:1}.in ;;
  x[sdcz]cblat[23]) input=$datadir/${prog:1:1}in${prog:7:1} ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# The program must load the library under test, not the system's.
loaded=$(LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$datadir/$prog" | grep 'libblas.so.3')
case $loaded in
  *"$libdir/libblas.so.3"*) ;;
  *) echo "run_netlib_blas: $prog would load '$loaded', not $libdir/libblas.so.3" >&2; exit 1 ;;
esac

LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$datadir/$prog" < "$input" > stdout.txt 2>&1
status=$?
cat stdout.txt ./*.out 2>/dev/null > all.txt
cat all.txt

fail() { echo "run_netlib_blas: $prog: $*" >&2; exit 1; }
[ $status -eq 0 ] || fail "exit status $status"
if grep -q -E 'FAIL|FATAL|SUSPECT|NOT RECOGNIZED|ABANDONED|illegal value|was incorrect' all.txt; then
  fail "a routine failed (lines above)"
fi
case $prog in
  xblat1? | x?cblat1)
    # One "----- PASS -----" per "Test of subprogram number".
    tests=$(grep -c 'Test of subprogram number' all.txt)
    passes=$(grep -c -- '----- PASS -----' all.txt)
    [ "$tests" -gt 0 ] && [ "$tests" -eq "$passes" ] || fail "$passes of $tests subprograms passed"
    echo "run_netlib_blas: $prog: all $tests subprograms passed" ;;
  *)
    passed=$(grep -c 'PASSED THE' all.txt)
    [ "$passed" -gt 0 ] || fail "no routine reported passing"
    grep -q 'END OF TESTS' all.txt || fail "did not reach the end of its tests"
    echo "run_netlib_blas: $prog: $passed PASSED lines, no failure" ;;
esac
