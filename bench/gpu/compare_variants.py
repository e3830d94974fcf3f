#!/usr/bin/env python3
"""Side-by-side view of rock's bench variants (no torch: runs anywhere).

Reads attention_bench.py's output, either its --json file (a list of rows)
or its log (one JSON row a line, the other lines ignored: what is left when
a run was cut short), and prints per case one line per base variant (the
part before the first modifier: dense, p16, ...): each of its variants'
median µs, the rate over the K+V bytes as a % of 4.8 TB/s, the ratio to the
base's time (< 1: faster), and the relative error against f32 SDPA (and
that of one more launch after the timed ones where it differs: state left
behind by a launch); then cuDNN and the read probe on the same bytes. Usage:
  compare_variants.py bench.json|bench.log
"""

import json
import sys

PEAK = 4.8e12


def rows(path):
    with open(path) as f:
        text = f.read()
    try:
        data = json.loads(text)
        return [r for r in data if "bundles" in r]
    except ValueError:
        out = []
        for line in text.splitlines():
            if line.startswith("{"):
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if "bundles" in r:
                    out.append(r)
        return out


def cell(r, v, base_us):
    us = r.get(v + "_us")
    if us is None:
        return f"{v} - ({r.get(v + '_error', 'not run')})"
    pct = 100 * r["kv_bytes"] / (us * 1e-6) / PEAK
    s = f"{v} {us:.1f} µs {pct:.0f}%"
    if base_us and v != base_us[0]:
        s += f" {us / base_us[1]:.3f}x"
    err = r.get(v + "_err")
    if err is not None:
        s += f" err {err:.1e}"
    after = r.get(v + "_err_after")
    if after is not None and after != err:
        s += f" (after the timing {after:.1e})"
    return s


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for r in rows(sys.argv[1]):
        head = (f"{r['suite']} {r['name']} ({r['kv_bytes'] / 2**20:.0f} MiB "
                f"K+V)")
        peers = []
        for p, label in (("cudnn", "cuDNN"), ("probe", "probe")):
            if r.get(p + "_us"):
                pct = 100 * r["kv_bytes"] / (r[p + "_us"] * 1e-6) / PEAK
                peers.append(f"{label} {r[p + '_us']:.1f} µs {pct:.0f}%")
        print(head + ": " + ", ".join(peers))
        groups = {}
        for v in r["bundles"]:
            groups.setdefault(v.split("-")[0], []).append(v)
        for base, vs in groups.items():
            ref = (base, r[base + "_us"]) if r.get(base + "_us") else None
            print("    " + " | ".join(cell(r, v, ref) for v in vs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
