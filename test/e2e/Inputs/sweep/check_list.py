#!/usr/bin/env python3
"""Checks `rock-sweep --list` output (stdin) against the sampling invariants
of tools/rock_sweep.py.

Usage: check_list.py [--limit BYTES] [--max-tokens N] [--max-head-dim N]
                     [--expect-paged all|some|none]
                     [--data pattern|int|float|mixed|any]
Prints "checked N samples, P paged" or the first violation (exit 1)."""
import argparse
import re
import sys

OUT_BYTES = {"f32": 4, "f16": 2, "bf16": 2, "i8": 2}
K_BITS = {"f32": 32, "f16": 16, "bf16": 16, "i8": 8}

ap = argparse.ArgumentParser()
ap.add_argument("--limit", type=int, default=1536 * 1024 * 1024)
ap.add_argument("--max-tokens", type=int, default=4096)
ap.add_argument("--max-head-dim", type=int, default=1024)
ap.add_argument("--expect-paged", default="any")
ap.add_argument("--data", default="pattern")
a = ap.parse_args()


def fail(msg, line):
    print(f"VIOLATION: {msg}: {line}")
    sys.exit(1)


n = paged = 0
for line in sys.stdin:
    if line.startswith("#") or not line.strip():
        continue
    m = re.match(r"(\d+): (\S+) (.*) \| (\S+)$", line.strip())
    if not m:
        fail("bad line", line)
    toks = m.group(3).split()
    f = {}
    i = 0
    while i < len(toks):
        t = toks[i]
        if "=" in t:
            k, v = t.split("=", 1)
            f[k] = v
        elif t in ("-pv", "-pv-strict"):
            f[t] = True
        else:
            f[t] = toks[i + 1]
            i += 1
        i += 1
    n += 1
    g, sq, sk = int(f["-g"]), int(f["-seq_len_q"]), int(f["-seq_len_k"])
    dqk, dv = int(f["-head_dim_qk"]), int(f["-head_dim_v"])
    hq, hkv = int(f["-num_heads_q"]), int(f["-num_heads_kv"])
    t = f["-t"]
    s = int(f["-split_kv"])
    lse = f["-return_lse"] == "True"
    scale = f["-with-attn-scale"] == "True"
    bias = f["-with-attn-bias"] == "True"
    if f["--operation"] != "attention" or f["--arch"] != "cpu" or \
            "-pv" not in f or "-pv-strict" in f:
        fail("operation/arch/-pv", line)
    if a.data != "any" and ("-rand" in f) != (a.data != "pattern"):
        fail("--data", line)
    if a.data == "float" and f.get("-rand_type") != "float":
        fail("--data float", line)
    for k in ("-with-attn-bias", "-transQ", "-transK", "-transV", "-transO",
              "-causal", "-return_lse", "-with-attn-scale"):
        if f[k] not in ("True", "False"):
            fail(f"{k} spelling", line)
    if max(sq, sk) * g > a.max_tokens:
        fail("tokens filter", line)
    if (s - 1) * g * hq * sq * (dv * OUT_BYTES[t] + (4 if lse else 0)) > a.limit:
        fail("split-KV prefilter", line)
    if s != 1 and not lse:
        fail("split without lse", line)
    if not (hq == hkv == 1 or (hq > hkv and hq % hkv == 0)):
        fail("heads", line)
    if "-current_seq_len" in f:
        vals = [int(x) for x in f["-current_seq_len"].split(",")]
        if sq != 1 or len(vals) != g or any(not 0 <= v < sk for v in vals):
            fail("kv cache", line)
    rms = "0.15" if (not scale and dqk > 64) else ("0.01" if t == "bf16" else "0.005")
    if f["-RMS_threshold"] != rms:
        fail(f"RMS policy (want {rms})", line)
    if "-relDiff_threshold" in f or "-absDiff_threshold" in f:
        fail("relDiff / absDiff at rock's defaults", line)
    pc = f["--perf_config"]
    if not re.fullmatch(r"attn:v3:(\d+,){12}\d+", pc):
        fail("perf config", line)
    if "--paged-attention" in f:
        paged += 1
        P, ps = int(f["--num-pages"]), int(f["--page-size"])
        if dqk != dv or P * ps != hkv * sk * dqk or ps % (128 // K_BITS[t]):
            fail("paged geometry", line)
    elif dqk > a.max_head_dim or dv > a.max_head_dim:
        fail("head dim cap", line)
if a.expect_paged == "all" and paged != n:
    fail("not all paged", "")
if a.expect_paged == "none" and paged:
    fail("unexpected paged", "")
if a.expect_paged == "some" and not 0 < paged < n:
    fail(f"expected some paged, got {paged}/{n}", "")
print(f"checked {n} samples, {paged} paged")
