#!/usr/bin/env python3
"""What NVIDIA's OpenCL compiler made of a kernel: its PTX, from optune's cache.

On NVIDIA's OpenCL a program's binary (CL_PROGRAM_BINARIES) is PTX text, and
optune's program cache (OPTUNE_CACHE_DIR/optune.sqlite, table `programs`)
keeps it. For every cached program with an `.entry` whose name matches the
pattern, this prints the counts of its memory instructions by kind (global
loads scalar or vector, non-coherent or not, shared loads and stores, global
stores), and with --ptxas the registers and spills that ptxas reports for
the architecture given; --save DIR writes each matching PTX to DIR.

    usage: ptx_loads.py CACHE_DIR ENTRY_REGEX [--ptxas sm_90] [--save DIR]
"""
import argparse
import collections
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

KINDS = re.compile(r"\b(ld|st)\.(global|shared|local)((?:\.nc)?)((?:\.v[248])?)\.[a-z]+\d+")


def kinds(text):
    counts = collections.Counter()
    for op, space, nc, vec in KINDS.findall(text):
        counts[f"{op}.{space}{nc}{vec or '.v1'}"] += 1
    return counts


def ptxas_info(ptx, arch):
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(ptx)
        path = f.name
    try:
        r = subprocess.run(["ptxas", f"-arch={arch}", "-v", path, "-o", os.devnull],
                           capture_output=True, text=True, timeout=120)
        lines = [l.strip() for l in r.stderr.splitlines() if "registers" in l or "spill" in l]
        return "; ".join(lines) or r.stderr.strip()[:200]
    except (OSError, subprocess.SubprocessError) as e:
        return f"ptxas: {e}"
    finally:
        os.unlink(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cache_dir")
    ap.add_argument("entry")
    ap.add_argument("--ptxas", default="")
    ap.add_argument("--save", default="")
    a = ap.parse_args()
    db = os.path.join(a.cache_dir, "optune.sqlite")
    if not os.path.exists(db):
        sys.exit(f"no cache file {db}")
    pat = re.compile(a.entry)
    rows = sqlite3.connect(db).execute("SELECT key, binary FROM programs").fetchall()
    n = 0
    for key, blob in rows:
        text = bytes(blob).decode("latin-1")
        # optune's cache puts a header before the driver's binary; the PTX
        # starts at its first directive.
        start = text.find(".version")
        if start < 0:
            continue
        text = text[start:].rstrip("\0")
        entries = re.findall(r"\.entry\s+(\w+)", text)
        if not any(pat.search(e) for e in entries):
            continue
        n += 1
        c = kinds(text)
        print(f"{key[:12]} {','.join(entries)}: " + " ".join(f"{k}={v}" for k, v in sorted(c.items())))
        if a.ptxas:
            print("   ", ptxas_info(text, a.ptxas))
        if a.save:
            os.makedirs(a.save, exist_ok=True)
            with open(os.path.join(a.save, f"{entries[0]}-{key[:12]}.ptx"), "w") as f:
                f.write(text)
    print(f"{n} of {len(rows)} cached programs match {a.entry!r}")


if __name__ == "__main__":
    main()
