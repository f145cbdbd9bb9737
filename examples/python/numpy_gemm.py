#!/usr/bin/env python3
"""C = relu(A B + bias) on an optune device, checked against numpy.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/numpy_gemm.py [--device SPEC] [--n N]
"""
import argparse
import time

import numpy as np

import optune

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--device", default=None, help="an optune device spec (default: OPTUNE_DEVICE, first GPU, CPU)")
parser.add_argument("--n", type=int, default=512, help="matrix size")
args = parser.parse_args()

dev = optune.Device(args.device) if args.device else optune.default_device()
rng = np.random.default_rng()
n = args.n
a = rng.standard_normal((n, n), dtype=np.float32)
b = rng.standard_normal((n, n), dtype=np.float32)
bias = rng.standard_normal(n, dtype=np.float32)

ta, tb, tbias = (optune.asarray(v, device=dev) for v in (a, b, bias))
c = optune.gemm(ta, tb, bias=tbias, activation="relu")  # first call: compiles (once per machine)
dev.synchronize()
start = time.perf_counter()
c = optune.gemm(ta, tb, bias=tbias, activation="relu")
dev.synchronize()
seconds = time.perf_counter() - start

ref = np.maximum(a.astype(np.float64) @ b + bias, 0)
err = np.abs(c.numpy() - ref).max() / np.abs(ref).max()
print(f"{dev.name} ({dev.spec}): {n}x{n}x{n} f32 GEMM + bias + relu in {seconds * 1e3:.2f} ms "
      f"({2 * n**3 / seconds / 1e9:.1f} GFLOP/s), max relative error {err:.2e}")
print("a @ b.T as a view:", np.abs((ta @ tb.T).numpy() - a.astype(np.float64) @ b.T).max() < 1e-3 * n)
if err > 1e-5:
    raise SystemExit("result differs from numpy")
