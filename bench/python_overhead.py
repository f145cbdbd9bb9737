#!/usr/bin/env python3
"""The Python binding's cost, and optune on torch tensors against torch's ops.

1. Call overhead: optune.unary("relu", x, out=y) on a 1-element tensor, the
   host time per call from Python minus the same call from C++ (optune._optune's
   _cpp_unary_loop, same queue and operands): loops of enqueues short enough
   not to fill the driver's launch queue, the device drained outside the
   time, best of several; the issue's bound is 5 us.
2. gelu, softmax and layer_norm on torch tensors shared through from_dlpack
   (no copy), in GB/s (bytes read + written once), against the same ops on
   optune's own tensors of the same shape and torch's own ops in the same
   run (only where torch and a CUDA device are present).

    PYTHONPATH=build/gpu/python python3 bench/python_overhead.py --device cuda:0 --json bench/results/DATE-h100-python.json
"""
import argparse
import json
import platform
import subprocess
import time

import numpy as np

import optune


def best_of(fn, repeats):
    return min(fn() for _ in range(repeats))


def overhead(dev, iterations, repeats):
    x = optune.asarray(np.ones(1, np.float32), device=dev)
    y = optune.empty(1, dtype=np.float32, device=dev)
    optune.relu(x, out=y)  # compile, trust checks
    dev.synchronize()

    def python_loop():
        dev.synchronize()
        start = time.perf_counter()
        for _ in range(iterations):
            optune.unary("relu", x, out=y)
        seconds = time.perf_counter() - start
        dev.synchronize()
        return seconds / iterations

    def cpp_loop():
        return optune._optune._cpp_unary_loop("relu", x, y, iterations) / iterations

    # The two loops alternate, so that a change of the host's clock or load
    # during the run reaches both; each side keeps its fastest loop.
    py, cpp = [], []
    for _ in range(repeats):
        py.append(python_loop())
        cpp.append(cpp_loop())
    py_s, cpp_s = min(py), min(cpp)
    pairs = sorted(p - c for p, c in zip(py, cpp))
    return {"python_us": py_s * 1e6, "cpp_us": cpp_s * 1e6, "overhead_us": (py_s - cpp_s) * 1e6,
            "overhead_median_pair_us": pairs[len(pairs) // 2] * 1e6,
            "iterations": iterations, "repeats": repeats}


def torch_rows(dev, repeats):
    try:
        import torch
    except ImportError:
        return {"skipped": "torch is not installed"}
    if dev.backend != "cuda" or not torch.cuda.is_available():
        return {"skipped": "needs the CUDA back end and torch with CUDA"}
    tdev = torch.device(f"cuda:{dev.spec.split(':')[1]}")
    rows, cols = 8192, 8192
    x = torch.randn(rows, cols, device=tdev)
    y = torch.empty_like(x)
    g, b = torch.randn(cols, device=tdev), torch.randn(cols, device=tdev)
    ox, oy, og, ob = (optune.from_dlpack(t, device=dev, copy=False) for t in (x, y, g, b))
    assert ox.__cuda_array_interface__["data"][0] == x.data_ptr()  # shared, not copied
    bytes_moved = 2 * x.numel() * x.element_size()
    cases = {
        "gelu": (lambda: optune.gelu(ox, out=oy), lambda: torch.nn.functional.gelu(x)),
        "softmax": (lambda: optune.softmax(ox, -1, out=oy), lambda: torch.softmax(x, -1)),
        "layer_norm": (lambda: optune.layer_norm(ox, og, ob, 1e-5, out=oy),
                       lambda: torch.nn.functional.layer_norm(x, (cols,), g, b, 1e-5)),
    }
    # The same ops on optune's own tensors of the same shape: what sharing
    # torch's memory through from_dlpack costs (nothing, if the rates match).
    own = {k: optune.asarray(v.cpu().numpy(), device=dev) for k, v in (("x", x), ("g", g), ("b", b))}
    own["y"] = optune.empty((rows, cols), dtype=np.float32, device=dev)
    own_cases = {
        "gelu": lambda: optune.gelu(own["x"], out=own["y"]),
        "softmax": lambda: optune.softmax(own["x"], -1, out=own["y"]),
        "layer_norm": lambda: optune.layer_norm(own["x"], own["g"], own["b"], 1e-5, out=own["y"]),
    }
    out = {}
    for name, (opt, ref) in cases.items():
        opt(), ref()
        dev.synchronize(), torch.cuda.synchronize()

        def timed(fn, sync, n=20):
            sync()
            start = time.perf_counter()
            for _ in range(n):
                fn()
            sync()
            return (time.perf_counter() - start) / n

        o = best_of(lambda: timed(opt, dev.synchronize), repeats)
        t = best_of(lambda: timed(ref, torch.cuda.synchronize), repeats)
        own_cases[name]()
        w = best_of(lambda: timed(own_cases[name], dev.synchronize), repeats)
        out[name] = {"shape": [rows, cols], "dtype": "f32", "optune_ms": o * 1e3, "torch_ms": t * 1e3,
                     "optune_gbs": bytes_moved / o / 1e9, "torch_gbs": bytes_moved / t / 1e9,
                     "optune_own_tensors_gbs": bytes_moved / w / 1e9}
    out["torch_version"] = torch.__version__
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default=None)
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--repeats", type=int, default=20)
    p.add_argument("--json", default=None, help="write the results here")
    args = p.parse_args()
    dev = optune.Device(args.device) if args.device else optune.default_device()
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    result = {"kind": "python", "device": dev.name, "spec": dev.spec, "commit": commit,
              "python": platform.python_version(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "overhead": overhead(dev, args.iterations, args.repeats), "torch": torch_rows(dev, args.repeats)}
    o = result["overhead"]
    print(f"{dev.name}: optune.unary on 1 element: Python {o['python_us']:.2f} us, C++ {o['cpp_us']:.2f} us, "
          f"binding overhead {o['overhead_us']:.2f} us per call")
    for name, row in result["torch"].items():
        if isinstance(row, dict):
            print(f"  {name:10s} optune on torch's tensors {row['optune_gbs']:7.1f} GB/s, on its own "
                  f"{row['optune_own_tensors_gbs']:7.1f} GB/s;  torch {row['torch_gbs']:7.1f} GB/s")
        else:
            print(f"  {name}: {row}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
