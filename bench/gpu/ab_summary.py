#!/usr/bin/env python3
"""Per case: each run's rock variants (µs, ratio to that run's cuDNN),
new / base ratios. Usage: summary.py RESULTS_DIR"""
import glob, json, os, sys
runs = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*", "bench.json"))):
    tag = os.path.basename(os.path.dirname(f)).split("-", 1)[1]
    try:
        rows = json.load(open(f))
    except Exception:
        continue
    for r in rows:
        if "name" not in r:
            continue
        key = (r["suite"], r["name"])
        for v in r.get("bundles", {}):
            us = r.get(f"{v}_us")
            if us:
                runs.setdefault(key, {}).setdefault(v, []).append(
                    (tag.split("-")[0], us, r.get("cudnn_us"), r.get(f"{v}_err")))
for (s, n), vs in runs.items():
    out = []
    for v, xs in vs.items():
        cells = " ".join(f"{t}:{us:.1f}({us / c if c else 0:.3f}c,e{e or 0:.1e})"
                         for t, us, c, e in xs)
        out.append(f"{v} {cells}")
    print(f"{s} {n}: " + " | ".join(out))
