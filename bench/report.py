#!/usr/bin/python3
"""Renders bench/run.py's results.json as the markdown tables of
bench/RESULTS.md: `bench/report.py build/bench/results.json > table.md`."""
import json
import sys

CCX_L3 = 32 * 2 ** 20    # the L3 these cores allocate into (see RESULTS.md)
SOCKET_L3 = 480 * 2 ** 20


def fmt(v, spec=".1f", missing="–"):
    return missing if v is None else format(v, spec)


def pct(v):
    return "–" if v is None else f"{100 * v:.0f} %"


def where(kv):
    if kv < CCX_L3:
        return "in L3"
    if kv == CCX_L3:
        return "= CCX L3"
    if kv <= SOCKET_L3:
        return "> CCX L3"
    return "> socket L3"


def paged_ratio(d):
    """rock / paged probe; with --rounds, the best rates' ratio and the
    median of the per-round ratios."""
    if "rounds" in d and d.get("rock_vs_paged_probe_median") is not None:
        return (f"{pct(d.get('rock_vs_paged_probe'))} (median "
                f"{pct(d['rock_vs_paged_probe_median'])})")
    return pct(d.get("rock_vs_paged_probe"))


def peak_ratio(p):
    """rock / the probe's ceiling; with --rounds, the best rates' ratio and
    the median of the per-round ratios."""
    if "rounds" in p and p.get("rock_vs_peak_median") is not None:
        return (f"{pct(p.get('rock_vs_peak'))} (median "
                f"{pct(p['rock_vs_peak_median'])})")
    return pct(p.get("rock_vs_peak"))


def header(out, title, cols):
    """Appends a blank line, `title`, a blank line and a table header."""
    out += ["", title, "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]


def render(r):
    out = []
    m = r["machine"]
    out.append(f"Machine: {m.get('Model name', '?')} ({m.get('cores')} cores), "
               f"{m.get('MemTotal', '?')} RAM; {r['date']}; rock's kernels "
               f"generated for CPU **{r.get('jit_cpu', 'host')}**.")
    out.append(f"CPU flags (those rock's forms depend on): {m.get('flags', '?')}.")
    pk = r.get("peak") or {}
    if pk:
        out.append("Peak probe (rock-peak-probe, JIT kernels, all cores): " +
                   ", ".join(f"{k} **{v:.1f}**" for k, v in pk.items()) + ".")
    pg = r.get("paged_read_gbps") or {}
    out.append(f"Read probes (2 GiB, all cores): linear **{fmt(r['read_gbps'])} GB/s**; "
               + ", ".join(f"shuffled {int(k) // 1024} KiB pages **{fmt(v)} GB/s**"
                           for k, v in sorted(pg.items(), key=lambda kv: -int(kv[0])))
               + f"; numpy+OpenBLAS SGEMM 2048³: **{fmt(r['sgemm_gflops'])} GFLOP/s**.")
    # A focused run (run.py --only) leaves some sections empty: no table.
    if any("rock_gbps" in d for d in r["decode"]):
        decode_table(out, r)
    if any("rock_gflops" in p for p in r["prefill"]):
        prefill_table(out, r)
    tuned_table(out, r)
    if r["compile"]:
        out.append("")
        out.append("Cold compile (rock-gen | rock-run, module read -> JIT "
                   "ready): " + ", ".join(
                       f"{c['kernel']} {fmt(c.get('compile_time_ms'), '.0f')} ms"
                       for c in r["compile"]))
    return "\n".join(out) + "\n"


def decode_table(out, r):
    header(out, "C-A paged GQA decode (Hq 32, Hkv 8, d 128, q 1, page 16 tokens, "
           "shuffled pages), GB/s over algorithmic bytes:",
           ["dtype", "B", "L", "K+V", "rock", "linear / paged probe",
            "rock / linear", "rock / paged", "rock / same pages (paired)",
            "numpy+OpenBLAS", "torch 1.13", "plain C", "ablation"])
    for d in r["decode"]:
        if "rock_gbps" not in d:
            continue
        ab = []
        if d.get("rock_gbps_no_prefetch"):
            ab.append(f"no prefetch {fmt(d['rock_gbps_no_prefetch'])}")
        if d.get("rock_gbps_dense"):
            ab.append(f"dense {fmt(d['rock_gbps_dense'])}")
        if d.get("rock_gbps_no_dot"):
            ab.append(f"no dot {fmt(d['rock_gbps_no_dot'])}")
        out.append(
            f"| {d['dtype']} | {d['B']} | {d['L']} | "
            f"{d['kv_bytes'] // 2 ** 20} MiB ({where(d['kv_bytes'])}) | "
            f"{fmt(d['rock_gbps'])} | {fmt(d.get('probe_gbps'))} / "
            f"{fmt(d.get('paged_probe_gbps'))} | {pct(d.get('rock_vs_probe'))} | "
            f"{paged_ratio(d)} | {pct(d.get('rock_vs_pair_probe'))} | "
            f"{fmt(d.get('numpy_gbps'))} | "
            f"{fmt(d.get('torch_gbps'))} | {fmt(d.get('c_loop_gbps'))} | "
            f"{', '.join(ab) or '–'} |")


def prefill_table(out, r):
    header(out, "C-B prefill (Hq 32, Hkv 8, d 128), useful GFLOP/s (i8: "
           "GOP/s) (4·Hq·S²·d, halved for causal); the ceiling is "
           "rock-peak-probe's kernel for the dtype, measured next to the case; "
           "numpy is f32, torch the dtype's matmul + softmax composite:",
           ["dtype", "S", "causal", "rock", "ceiling (probe)", "rock / ceiling",
            "SGEMM", "rock / SGEMM", "numpy f32", "rock / numpy", "torch 1.13"])
    for p in r["prefill"]:
        if "rock_gflops" not in p:
            continue
        ratio = p["rock_gflops"] / p["numpy_gflops"] if p.get("numpy_gflops") else None
        kern = (p.get("peak_kernel") or "").replace("_gflops", "").replace("_gops", "")
        out.append(f"| {p.get('dtype', 'f32')} | {p['S']} | {p['causal']} | "
                   f"{fmt(p['rock_gflops'])} | {fmt(p.get('peak_gflops'))} "
                   f"({kern or '–'}) | {peak_ratio(p)} | "
                   f"{fmt(p.get('sgemm_gflops'))} | {pct(p.get('rock_vs_sgemm'))} | "
                   f"{fmt(p.get('numpy_gflops'))} | {fmt(ratio, '.1f')}x | "
                   f"{fmt(p.get('torch_gflops'))} |")
    bounded = [p for p in r["prefill"] if p.get("rock_vs_bound") is not None]
    if bounded:
        out.append("")
    for p in bounded:
        med = (f" (median {pct(p['rock_vs_bound_median'])})"
               if p.get("rock_vs_bound_median") is not None else "")
        out.append(f"- i8 S {p['S']} causal {p['causal']}: against the "
                   f"problem's bound (Q·Kᵀ at the ceiling, P·V on f16 V at "
                   f"the f32 FMA probe) {fmt(p['bound_gops'])} GOP/s: "
                   f"{pct(p['rock_vs_bound'])}{med}")


def tuned_table(out, r):
    tuned = [(f"decode {d['dtype']} B={d['B']} L={d['L']}", d)
             for d in r["decode"] if d.get("rock_tuned_ms")]
    tuned += [(f"prefill {p.get('dtype', 'f32')} S={p['S']} causal={p['causal']}", p)
              for p in r["prefill"] if p.get("rock_tuned_ms")]
    if tuned:
        header(out, "rock's heuristic and tuned kernels (the perf DB's "
               "entries, docs/tuning.md), best run in ms:",
               ["case", "heuristic", "tuned", "tuned / heuristic"])
        for name, d in tuned:
            out.append(f"| {name} | {fmt(d['rock'].get('kernel_time_ms'), '.3f')}"
                       f" | {fmt(d['rock_tuned_ms'], '.3f')} | "
                       f"{fmt(d.get('tuned_vs_heuristic'), '.3f')} |")


if __name__ == "__main__":
    with open(sys.argv[1] if len(sys.argv) > 1 else "build/bench/results.json") as f:
        sys.stdout.write(render(json.load(f)))
