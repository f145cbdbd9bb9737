#!/usr/bin/env python3
# One line per row of `optune bench --json` files (any suite): the file's
# tag, the operator or group, type, size, median us, the reference's us and
# ratio, the fraction of the copy ceiling (of the row's own ceiling where it
# has no copy fraction: level 3's FMA rate), and the kernel parameters that
# matter most for the level-2 and thin GEMM sweeps. The short table a GPU
# run ends with:  python3 scripts/gpu/bench_summary.py $OUT/*.json
import json, sys, os
def walk(o):
    # A row is any object with a median; suites nest them under "rows" or in plain lists.
    if isinstance(o, dict):
        if 'median_us' in o:
            yield o
            return
        for v in o.values(): yield from walk(v)
    elif isinstance(o, list):
        for v in o: yield from walk(v)
for f in sys.argv[1:]:
    try: d = json.load(open(f))
    except Exception as e: print(f, 'unreadable', e); continue
    tag = os.path.basename(f)[:-5]
    for r in walk(d.get('operators', {})):
        ref = r.get('reference') or {}
        cf = r.get('fraction_of_copy_ceiling', max([v for k, v in r.items() if k.startswith('fraction_of_')] or [0]))
        shape = f"{r.get('m','')}x{r.get('n','')}x{r.get('k','')}{r.get('trans','')}" if 'm' in r else f"n={r.get('n','')}"
        ps = ';'.join(p['family'] + ':' + ','.join(f"{k}{v}" for k, v in p['params'].items() if k in ('WGS','CTJ','SLICES','FUSE','GEMM','TC','SPLIT','MT','KU','NJ','WGX','WGY','VW','KERNEL')) for p in r.get('parameters', []))
        print(f"{tag[:28]:28s} {r.get('op', r.get('group', r.get('case',''))):8s} {r.get('dtype', ''):5s} {shape:18s} {r['median_us']:8.1f} ref {ref.get('median_us', 0):7.1f} x{ref.get('speed_ratio', 0):5.2f} cf {cf:.2f} {ps[:90]}")
