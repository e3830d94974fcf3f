#!/usr/bin/env python3
"""Sanity checks of e2e-configs/*.toml (no tools needed):
every file expands, declares a level, PR combinations stay within budget,
thresholds are rocMLIR's for the dtype (7.4) (a file with
`thresholds = "defaults"` names none: it runs at rock's default gates), paged geometry is consistent
(5.4), split-KV has -return_lse, prefix offsets have -causal.
Usage: check_configs.py <e2e-configs dir> [--pr-budget N]"""
import glob
import os
import shlex
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import toml_expand as te  # noqa: E402

THRESH = {
    "f32": {"-relDiff_threshold": "0.000005"},
    "f16": {"-relDiff_threshold": "0.02", "-absDiff_threshold": "0.02",
            "-RMS_threshold": "0.015"},
    "bf16": {"-relDiff_threshold": "0.3", "-absDiff_threshold": "0.3",
             "-RMS_threshold": "0.15"},
    "i8": {"-RMS_threshold": "0.01"},
}
ELEM_BITS = {"f32": 32, "f16": 16, "bf16": 16, "i8": 8}
BOOL = {"causal", "return_lse", "paged_attention", "with_attn_scale",
        "with_attn_bias", "transQ", "transK", "transV", "transO",
        "reverse_grid", "pv", "pv_strict"}


def parse(cmd):
    toks = shlex.split(cmd.split("|")[0])[1:]
    f, i = {}, 0
    while i < len(toks):
        t = toks[i].lstrip("-")
        if "=" in t:
            k, v = t.split("=", 1)
        elif t.replace("-", "_") in BOOL:
            k, v = t, "true"
        else:
            k, v = t, toks[i + 1]
            i += 1
        f[k.replace("-", "_")] = v
        i += 1
    return f


def main():
    d = sys.argv[1]
    budget = int(sys.argv[3]) if len(sys.argv) > 3 else 150
    pr = total = 0
    errors = []
    for path in sorted(glob.glob(os.path.join(d, "*.toml"))):
        name = os.path.basename(path)
        spec = te.load(path)
        if "level" not in spec.data:
            errors.append(f"{name}: no level key")
        for st in spec.suite_tests():
            for c in st.combos:
                if c.excluded:
                    continue
                total += 1
                pr += st.level == "pr"
                cmd = te.exec_command(spec, c, {"arch": "cpu", "pv": "-pv",
                                                "random_data": "",
                                                "rock_gen_flags": "",
                                                "rocmlir_gen_flags": ""})
                f = parse(cmd)
                where = f"{name} {st.suite}/{st.t}/{c.o}"
                t = f.get("t", "f32")
                # Sweep regressions carry rock-sweep's thresholds instead.
                policy = spec.data.get("thresholds", "rocmlir")
                if policy == "defaults":
                    for k in ("relDiff_threshold", "absDiff_threshold",
                              "RMS_threshold", "atol", "rtol"):
                        if k in f:
                            errors.append(f"{where}: -{k} in a file at "
                                          "rock's default gates")
                for k, v in (THRESH[t] if policy == "rocmlir" else {}).items():
                    got = f.get(k.lstrip("-"))
                    # documented relaxation (NightlyAttention.toml)
                    if t == "f32" and got == "0.00002" and st.level == "nightly":
                        continue
                    if got != v:
                        errors.append(f"{where}: {t} needs {k} {v}")
                if int(f.get("split_kv", 1)) > 1 and str(f.get("return_lse")).lower() != "true":
                    errors.append(f"{where}: split_kv without -return_lse")
                if "prefix_offset" in f and str(f.get("causal")).lower() != "true":
                    errors.append(f"{where}: prefix_offset without -causal")
                if str(f.get("paged_attention")).lower() == "true":
                    hkv = int(f.get("num_heads_kv", 1))
                    sk, dqk, dv = (int(f["seq_len_k"]), int(f["head_dim_qk"]),
                                   int(f["head_dim_v"]))
                    P, ps = int(f["num_pages"]), int(f["page_size"])
                    if dqk != dv or P * ps != hkv * sk * dqk or \
                            ps % (128 // ELEM_BITS[t]):
                        errors.append(f"{where}: bad paged geometry")
    for e in errors:
        print("ERROR:", e)
    print(f"{total} combinations, {pr} at level pr (budget {budget})")
    if pr > budget:
        print("ERROR: PR level over budget")
        return 1
    return 1 if errors else 0


sys.exit(main())
