#!/usr/bin/env bash
# Installs the build tree into a fresh prefix, then builds and runs, against
# that prefix only, the CMake consumer (find_package, shared and static) and
# the C consumer (pkg-config and gcc). Run by CTest (test install.consumers):
#   run.sh CMAKE BUILD_DIR WORK_DIR GENERATOR [PYTHON PYTHON_INSTALL_DIR]
# With PYTHON, the installed Python package is imported too (see the end).
set -euo pipefail
cmake_bin=$1 build=$2 work=$3 generator=$4 python=${5:-} python_dir=${6:-}
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
if [ -n "$python" ]; then
  step "python: the installed package, from $python_dir"
  # Under /usr/local (the default prefix) or /usr, Debian's python3 searches
  # this folder with no environment variable: prove that it is one of them.
  "$python" -c "import site, sys; d = '/usr/local/$python_dir'; sys.exit(d not in site.getsitepackages())" ||
    { echo "/usr/local/$python_dir is not on $python's default path" >&2; exit 1; }
  [ -e "$prefix/$python_dir/optune/__init__.py" ] || { echo "missing after install: $python_dir/optune" >&2; exit 1; }
  # Imported from the prefix alone (-I: no PYTHONPATH, no user site; the
  # build tree is not on the path), then one operator against numpy.
  "$python" -I -c "
import site, sys
site.addsitedir('$prefix/$python_dir')
import numpy as np, optune
assert optune.__file__.startswith('$prefix/'), optune.__file__
x = np.linspace(-3, 3, 101, dtype=np.float32)
y = optune.relu(optune.asarray(x)).numpy()
assert (y == np.maximum(x, 0)).all()
print('python consumer: OK,', optune.default_device().name)
"
fi
echo "consumers: OK"
