#!/usr/bin/env bash
# Installs the build tree into a fresh prefix, then builds and runs, against
# that prefix only, the CMake consumer (find_package, shared and static) and
# the C consumer (pkg-config and gcc). Run by CTest (test install.consumers):
#   run.sh CMAKE BUILD_DIR WORK_DIR GENERATOR
set -euo pipefail
cmake_bin=$1 build=$2 work=$3 generator=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

step() { echo "== $*"; }

step "cmake --install $build --prefix $prefix"
"$cmake_bin" --install "$build" --prefix "$prefix" >"$work/install.log"
for f in include/optune/optune.hpp include/optune/optune.h bin/optune share/optune/database; do
  [ -e "$prefix/$f" ] || { echo "missing after install: $f" >&2; exit 1; }
done
libdir=$(dirname "$(find "$prefix" -name 'liboptune.so' | head -1)")
[ -e "$libdir/liboptune.a" ] || { echo "missing after install: liboptune.a" >&2; exit 1; }
soname=$(objdump -p "$libdir/liboptune.so" | awk '/SONAME/ {print $2}')
echo "liboptune.so SONAME: $soname"
[[ "$soname" =~ ^liboptune\.so\.[0-9]+$ ]] || { echo "bad SONAME '$soname'" >&2; exit 1; }
"$prefix/bin/optune" --help >/dev/null

step "find_package(optune CONFIG): tests/consumer/cmake"
"$cmake_bin" -S "$here/cmake" -B "$work/cmake-build" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
"$cmake_bin" --build "$work/cmake-build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/cmake-build/consumer_shared"
"$work/cmake-build/consumer_static"
# The shared one resolves liboptune.so from the prefix (CMake's build RPATH).
ldd "$work/cmake-build/consumer_shared" | grep -F "$prefix" >/dev/null ||
  { echo "consumer_shared does not load the installed liboptune.so" >&2; ldd "$work/cmake-build/consumer_shared"; exit 1; }
if ldd "$work/cmake-build/consumer_static" | grep -F liboptune.so; then
  echo "consumer_static loads liboptune.so: optune::optune_static is not the archive" >&2
  exit 1
fi

step "pkg-config --cflags --libs optune; gcc"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
flags=$(pkg-config --cflags --libs optune)
echo "pkg-config: $flags"
# -lm is the consumer's own (it calls exp); liboptune.so brings its own.
gcc -std=c99 -Wall -Wextra -pedantic-errors -Werror "$here/c/consumer.c" $flags -lm -o "$work/c_consumer"
LD_LIBRARY_PATH="$libdir" "$work/c_consumer"
echo "consumers: OK"
