#!/usr/bin/python3
"""rock's CPU benchmark driver (make bench).

Measures, in one run on this machine: a read-bandwidth probe, the SGEMM rate,
rock's paged GQA decode (C-A) and prefill (C-B) kernels through
`rock-gen | rock-run --time`, the peers (numpy + OpenBLAS, torch, a plain C
loop), and cold compile times. Writes results.json, results.csv and PNG plots
into --out, and prints a summary with the machine stated.
"""
import argparse
import csv
import json
import os
import platform
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402

HQ, HKV, D = 32, 8, 128
RUN_ARGS = []  # for every rock-run: --cpu (main)
PERF_DB = []  # rock-gen's --perf-db for the tuned rows (main); [] = none
# The x86 flags that decide rock's CPU forms (stated with the machine).
CPU_FLAGS = ("avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512_bf16",
             "avx512_vnni", "avx512_fp16", "amx_tile", "amx_bf16", "amx_int8")
# The compute ceiling of each prefill dtype: the first kernel of
# rock-peak-probe that this CPU has (AMX, then the dot instructions, then
# f32 FMA).
CEILINGS = {"f32": ("fma_f32_gflops",),
            "bf16": ("amx_bf16_gflops", "dot_bf16_gflops", "fma_f32_gflops"),
            "i8": ("amx_i8_gops", "dot_i8_gops", "fma_f32_gflops")}


def machine():
    info = {"cores": os.cpu_count(), "platform": platform.platform()}
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for key in ("Model name", "L1d cache", "L2 cache", "L3 cache"):
            m = re.search(rf"^{key}:\s*(.+)$", out, re.M)
            if m:
                info[key] = m.group(1).strip()
    except OSError:
        pass
    try:
        with open("/proc/cpuinfo") as f:
            flags = set(re.search(r"^flags\s*:(.*)$", f.read(), re.M)
                        .group(1).split())
        info["flags"] = " ".join(f for f in CPU_FLAGS if f in flags)
    except (OSError, AttributeError):
        pass
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith(("MemTotal", "MemAvailable")):
                    k, v = line.split(":")
                    info[k] = v.strip()
    except OSError:
        pass
    return info


def mem_available_bytes():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable"):
                return int(line.split()[1]) * 1024
    return 0


def tuned_args(bin_dir, gen_args):
    """rock-gen's --perf-db flags for the tuned run of `gen_args`, or None
    when the perf DB has no entry for the problem (rock-gen -v says)."""
    if not PERF_DB:
        return None
    g = subprocess.run([os.path.join(bin_dir, "rock-gen"), "--operation",
                        "attention"] + gen_args + PERF_DB +
                       ["-v", "-o", os.devnull], capture_output=True,
                       text=True)
    return PERF_DB if " from perf DB " in g.stderr else None


def run_rock(bin_dir, gen_args, repeats, timeout=1800, run_args=(), env=None,
             perf_db=("--perf-db", "none")):
    """rock's kernel through rock-gen | rock-run --time. `perf_db`: the
    heuristic's kernel by default (docs/tuning.md); tuned rows pass the
    perf DB."""
    gen = [os.path.join(bin_dir, "rock-gen"), "--operation", "attention"] + \
        gen_args + list(perf_db)
    run = [os.path.join(bin_dir, "rock-run"), "--time", "--kernel-repeats",
           str(repeats)] + RUN_ARGS + list(run_args)
    t0 = time.perf_counter()
    g = subprocess.run(gen, capture_output=True, text=True, timeout=timeout)
    if g.returncode != 0:
        return {"error": "rock-gen: " + g.stderr.strip()[:300]}
    r = subprocess.run(run, input=g.stdout, capture_output=True, text=True,
                       timeout=timeout,
                       env=dict(os.environ, **env) if env else None)
    res = {"wall_s": time.perf_counter() - t0, "rc": r.returncode,
           "verdict": None}
    for key in ("compile_time_ms", "kernel_time_ms", "kernel_time_min_ms",
                "probe_read_gbps", "kernel_vs_probe", "kernel_vs_probe_best"):
        m = re.search(rf"^{key}:\s*([0-9.eE+-]+)", r.stdout, re.M)
        if m:
            res[key] = float(m.group(1))
    m = re.search(r"^\[([01]) ([01]) ([01])\]", r.stdout, re.M)
    if m:
        res["verdict"] = m.group(0)
    if "kernel_time_min_ms" in res:
        res["kernel_time_ms"] = res["kernel_time_min_ms"]  # best run, as peers
    if "kernel_time_ms" not in res:
        res["error"] = "rock-run: " + (r.stderr.strip() or r.stdout.strip())[:300]
    return res


def probe(bin_dir, mib, reps, page_bytes=()):
    """Runs rock-read-probe; returns (linear GB/s, {page bytes: GB/s})."""
    out = subprocess.run([os.path.join(bin_dir, "rock-read-probe"), str(mib),
                          str(reps)] + [str(p) for p in page_bytes],
                         capture_output=True, text=True).stdout
    m = re.search(r"^read_gbps:\s*([0-9.]+)", out, re.M)
    paged = {int(k): float(v) for k, v in re.findall(
        r"paged_read_gbps\[(\d+)\]:\s*([0-9.]+)", out)}
    return (float(m.group(1)) if m else None), paged


def peak(bin_dir, names=(), env=None):
    """Runs rock-peak-probe; returns {kernel: rate} (rates of kernels the CPU
    lacks are absent)."""
    out = subprocess.run([os.path.join(bin_dir, "rock-peak-probe")] + list(names),
                         capture_output=True, text=True,
                         env=dict(os.environ, **env) if env else None).stdout
    return {k: float(v) for k, v in
            re.findall(r"^(\w+):\s*([0-9]+\.[0-9]+)$", out, re.M)}


def ceiling(dtype, rates):
    """(kernel, rate) of the compute ceiling of `dtype` in `rates`."""
    for k in CEILINGS[dtype]:
        if k in rates:
            return k, rates[k]
    return None, None


def decode_args(dtype, B, L, paged=True, split=None, verify=False):
    a = ["-t", dtype, "-g", str(B), "-num_heads_q", str(HQ), "-num_heads_kv",
         str(HKV), "-seq_len_q", "1", "-seq_len_k", str(L), "-head_dim_qk",
         str(D), "-head_dim_v", str(D), "--with-attn-scale=false"]
    if paged:
        ps = 16 * D  # 16 tokens of one head per page
        a += ["--paged-attention", "--page-size", str(ps), "--num-pages",
              str(HKV * L * D // ps)]
    if split and split > 1:
        a += ["-split_kv", str(split), "-return_lse"]
    a += ["-pv"] if verify else ["-ph"]
    return a


def prefill_args(S, causal, verify=False, dtype="f32"):
    a = ["-t", dtype, "-g", "1", "-num_heads_q", str(HQ), "-num_heads_kv",
         str(HKV), "-seq_len_q", str(S), "-seq_len_k", str(S), "-head_dim_qk",
         str(D), "-head_dim_v", str(D)]
    if causal:
        a.append("-causal")
    a += ["-pv"] if verify else ["-ph"]
    return a


def decode_rounds(bin_dir, row, nbytes, elt_bytes, args):
    """args.rounds rounds of (probes, rock) for the decode row `row`; fills
    its rates: the best of the rounds for rock and for each probe (a shared
    machine's load comes in phases: each best is the least disturbed run),
    their ratios, and the median of the per-round ratios to the paged
    probe. Returns rock's run of the best round."""
    dtype, B, L = row["dtype"], row["B"], row["L"]
    best, rounds = None, []
    for _ in range(args.rounds):
        lin, pgd = probe(bin_dir, 64 if args.quick else 1024, 3,
                         (16 * D * elt_bytes,))
        # --time-probe: after each kernel run, a read of the same K / V
        # pages in the same process (the ratio of each pair is immune to
        # the host's bandwidth drifting between runs).
        rr = run_rock(bin_dir, decode_args(dtype, B, L, verify=args.quick),
                      args.repeats, run_args=("--time-probe",))
        rnd = {"probe_gbps": lin, "paged_probe_gbps": pgd.get(16 * D * elt_bytes),
               "pair_probe_gbps": rr.get("probe_read_gbps"),
               "rock_vs_pair_probe": rr.get("kernel_vs_probe")}
        if "kernel_time_ms" in rr:
            rnd["rock_gbps"] = nbytes / (rr["kernel_time_ms"] * 1e-3) / 1e9
            if best is None or rr["kernel_time_ms"] < best["kernel_time_ms"]:
                best = rr
        rounds.append(rnd)
    row["rock"] = best or rr
    for k in ("probe_gbps", "paged_probe_gbps", "rock_gbps", "pair_probe_gbps"):
        v = [r[k] for r in rounds if r.get(k)]
        if v:
            row[k] = max(v)
    pairs = sorted(r["rock_vs_pair_probe"] for r in rounds
                   if r.get("rock_vs_pair_probe"))
    if pairs:  # the median round of the per-run pair medians
        row["rock_vs_pair_probe"] = pairs[len(pairs) // 2]
    if "rock_gbps" in row:
        if row.get("probe_gbps"):
            row["rock_vs_probe"] = row["rock_gbps"] / row["probe_gbps"]
        if row.get("paged_probe_gbps"):
            row["rock_vs_paged_probe"] = (row["rock_gbps"] /
                                          row["paged_probe_gbps"])
        ratios = sorted(r["rock_gbps"] / r["paged_probe_gbps"] for r in rounds
                        if r.get("rock_gbps") and r.get("paged_probe_gbps"))
        if ratios:
            row["rock_vs_paged_probe_median"] = ratios[len(ratios) // 2]
    if args.rounds > 1:
        row["rounds"] = rounds
    return row["rock"]


def prefill_case(bin_dir, dtype, S, causal, args, jit_env):
    """One C-B row: rock, the ceilings measured next to it (SGEMM, the
    peak probe's kernel for `dtype`), numpy f32 and torch (f32 or bf16)."""
    quick = args.quick
    flops = 4.0 * HQ * S * S * D * (0.5 if causal else 1.0)
    row = {"dtype": dtype, "S": S, "causal": causal, "flops": flops}
    reps = 2 if S >= 4096 else max(2, args.repeats // 2)
    # The peak probe right before rock, --rounds times: the best of each.
    rr, rate, rounds = None, None, []
    for _ in range(args.rounds):
        rates = peak(bin_dir, CEILINGS[dtype], jit_env)
        kernel, r = ceiling(dtype, rates)
        x = run_rock(bin_dir, prefill_args(S, causal, verify=quick,
                                           dtype=dtype), reps)
        rounds.append({"peak_gflops": r, "rock_ms": x.get("kernel_time_ms")})
        # i8: P·V (half the operations) multiplies f16 V, which no CPU
        # without an f16 dot product runs faster than f32 FMAs: the
        # problem's bound is gemm0 at the ceiling and gemm1 at the FMA rate.
        fma = rates.get("fma_f32_gflops")
        if dtype == "i8" and r and fma and kernel != "fma_f32_gflops":
            rounds[-1]["bound_gops"] = 2.0 / (1.0 / r + 1.0 / fma)
        if r and (rate is None or r > rate):
            rate = r
        if rr is None or x.get("kernel_time_ms", 1e30) < rr.get(
                "kernel_time_ms", 1e30):
            rr = x
    row["rock"] = rr
    if args.rounds > 1:
        row["rounds"] = rounds
    tuned = tuned_args(bin_dir, prefill_args(S, causal, dtype=dtype))
    if tuned and "kernel_time_ms" in rr:
        tr = run_rock(bin_dir, prefill_args(S, causal, dtype=dtype), reps,
                      perf_db=tuned)
        if "kernel_time_ms" in tr:
            row["rock_tuned_ms"] = tr["kernel_time_ms"]
            row["tuned_vs_heuristic"] = (tr["kernel_time_ms"] /
                                         rr["kernel_time_ms"])
    # SGEMM again next to each case (shared machine).
    row["sgemm_gflops"] = peers.sgemm_gflops(256 if quick else 2048, reps=5)
    row["peak_kernel"], row["peak_gflops"] = kernel, rate
    if "kernel_time_ms" in rr:
        row["rock_gflops"] = flops / (rr["kernel_time_ms"] * 1e-3) / 1e9
        row["rock_vs_sgemm"] = row["rock_gflops"] / row["sgemm_gflops"]
        if rate:
            row["rock_vs_peak"] = row["rock_gflops"] / rate
        # Each round's rock against its own probe (a shared machine's load
        # moves both); the median over the rounds.
        ratios = sorted(flops / (x["rock_ms"] * 1e-3) / 1e9 / x["peak_gflops"]
                        for x in rounds if x.get("rock_ms") and x.get("peak_gflops"))
        if ratios:
            row["rock_vs_peak_median"] = ratios[len(ratios) // 2]
        bounds = [x for x in rounds if x.get("bound_gops") and x.get("rock_ms")]
        if bounds:
            row["bound_gops"] = max(x["bound_gops"] for x in bounds)
            row["rock_vs_bound"] = row["rock_gflops"] / row["bound_gops"]
            ratios = sorted(flops / (x["rock_ms"] * 1e-3) / 1e9 / x["bound_gops"]
                            for x in bounds)
            row["rock_vs_bound_median"] = ratios[len(ratios) // 2]
    t = peers.numpy_attention(1, HQ, HKV, S, S, D, causal=causal, reps=reps)
    row["numpy_gflops"] = flops / t / 1e9
    if dtype in ("f32", "bf16"):
        t = peers.torch_attention(1, HQ, HKV, S, S, D, causal=causal,
                                  reps=reps, dtype=dtype)
        if t:
            row["torch_gflops"] = flops / t / 1e9
    print("prefill", json.dumps({k: v for k, v in row.items() if k != "rock"}),
          rr.get("error", ""))
    return row


def ints(text, flag):
    """The comma list of positive integers `text` (None: None)."""
    if text is None:
        return None
    try:
        v = [int(x) for x in text.split(",")]
    except ValueError:
        v = [0]
    if any(x <= 0 for x in v):
        sys.exit(f"run.py: {flag}: expected a comma list of positive "
                 f"integers, got '{text}'")
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--quick", action="store_true",
                    help="tiny cases only (the lit smoke test)")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--cpu", default=os.environ.get("ROCK_JIT_CPU", ""),
                    help="LLVM CPU rock-run generates code for (rock-run "
                         "--cpu), e.g. x86-64-v3 for AVX2-only code on an "
                         "AVX-512 host; default $ROCK_JIT_CPU, else the host")
    ap.add_argument("--perf-db", help="perf DB of the tuned rows (default: "
                    "the one shipped, BUILD/share/rock/perf-db.tsv; 'none': "
                    "no tuned rows); rock's rows are the heuristic's kernels")
    # Focused runs (a shared machine, or one row being tuned): the
    # selections below default to the whole make bench set.
    ap.add_argument("--only", default="decode,prefill,compile",
                    help="comma list of the sections to run: decode, "
                         "prefill, compile (default: all)")
    ap.add_argument("--dtypes", help="comma list of the dtypes of the "
                    "decode (f32, bf16, f16) and prefill (f32, bf16, i8) "
                    "rows (default: all; --quick: f32 decode, f32 and bf16 "
                    "prefill)")
    ap.add_argument("--batch", help="comma list of decode batch sizes "
                    "(default 1,16)")
    ap.add_argument("--seq-k", help="comma list of decode key lengths L "
                    "(default 4096,16384,65536)")
    ap.add_argument("--seq-q", help="comma list of prefill lengths S "
                    "(default 1024,4096)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="rounds of (probes, rock) per decode / prefill "
                         "row, interleaved; the row keeps each one's best "
                         "(decode: also the median per-round ratio; "
                         "default 1)")
    ap.add_argument("--causal", choices=("both", "yes", "no"), default="both",
                    help="prefill rows causal, not, or both (default)")
    args = ap.parse_args()
    sections = set(args.only.split(","))
    bad = sections - {"decode", "prefill", "compile"}
    if bad:
        ap.error(f"--only: unknown section(s) {','.join(sorted(bad))}")
    if args.rounds < 1:
        ap.error("--rounds: expected a positive integer")
    if args.dtypes:
        args.dtypes = args.dtypes.split(",")
        bad = set(args.dtypes) - {"f32", "bf16", "f16", "i8"}
        if bad:
            ap.error(f"--dtypes: unknown dtype(s) {','.join(sorted(bad))} "
                     "(f32, bf16, f16, i8)")
    args.batch = ints(args.batch, "--batch")
    args.seq_k = ints(args.seq_k, "--seq-k")
    args.seq_q = ints(args.seq_q, "--seq-q")
    os.makedirs(args.out, exist_ok=True)
    bin_dir = os.path.join(args.build, "bin")
    db = args.perf_db or os.path.join(args.build, "share", "rock",
                                      "perf-db.tsv")
    if db != "none" and os.path.exists(db):
        PERF_DB.extend(["--perf-db", db])
    if args.cpu:
        RUN_ARGS.extend(["--cpu", args.cpu])
    results = {"machine": machine(), "jit_cpu": args.cpu or "host",
               "date": time.strftime("%Y-%m-%d %H:%M:%S"),
               "decode": [], "prefill": [], "compile": []}
    quick = args.quick

    # Linear read rate, and the rate of reading the KV pages of the decode
    # cases (16 tokens x d=128: 8 KiB f32, 4 KiB bf16) in a shuffled order.
    read_gbps, paged_gbps = probe(bin_dir, 64 if quick else 2048,
                                  3 if quick else 5, (16 * D * 4, 16 * D * 2))
    results["read_gbps"] = read_gbps
    results["paged_read_gbps"] = paged_gbps
    results["sgemm_gflops"] = peers.sgemm_gflops(256 if quick else 2048)
    jit_env = {"ROCK_JIT_CPU": args.cpu} if args.cpu else None
    results["peak"] = peak(bin_dir, env=jit_env)
    print(f"machine: {results['machine']}")
    print(f"peak probe: {results['peak']}")
    print(f"paged read probe: {paged_gbps} GB/s")
    print(f"read probe: {read_gbps} GB/s; numpy SGEMM: "
          f"{results['sgemm_gflops']:.1f} GFLOP/s")

    Bs = args.batch or ([1] if quick else [1, 16])
    Ls = args.seq_k or ([256] if quick else [4096, 16384, 65536])
    dtypes = ["f32"] if quick else ["f32", "bf16", "f16"]
    if args.dtypes:
        dtypes = [t for t in args.dtypes if t in ("f32", "bf16", "f16")]
    if "decode" not in sections:
        dtypes = []
    l3 = 480 * 2 ** 20
    for dtype in dtypes:
        s = 4 if dtype == "f32" else 2
        for B in Bs:
            for L in Ls:
                kv = 2 * B * HKV * L * D * s
                row = {"dtype": dtype, "B": B, "L": L, "kv_bytes": kv,
                       "above_l3": kv > l3}
                if 2.5 * kv > mem_available_bytes():
                    row["skipped"] = "not enough memory"
                    results["decode"].append(row)
                    print(f"decode {dtype} B={B} L={L}: skipped (memory)")
                    continue
                nbytes = kv + 2 * B * HQ * D * s + B * (HKV * L * D // (16 * D)) * 8
                # The machine is shared: the probes run again next to each
                # case (--rounds times, interleaved with rock's runs), and
                # the ratios use those.
                rr = decode_rounds(bin_dir, row, nbytes, s, args)
                tuned = tuned_args(bin_dir, decode_args(dtype, B, L))
                if tuned and "kernel_time_ms" in rr:
                    tr = run_rock(bin_dir, decode_args(dtype, B, L), args.repeats,
                                  perf_db=tuned)
                    if "kernel_time_ms" in tr:
                        row["rock_tuned_ms"] = tr["kernel_time_ms"]
                        row["tuned_vs_heuristic"] = (tr["kernel_time_ms"] /
                                                     rr["kernel_time_ms"])
                # Ablations on the largest B = 1 case: without the software
                # prefetch, and (bf16) without the AVX512-BF16 dot products in
                # the fused loops (rock.cpu_decode_dot = false).
                if B == 1 and L == max(Ls) and not quick and "rock_gbps" in row:
                    # Also the same K/V not paged, in rocMLIR's default
                    # dense layout (K as [B, Hkv, d, L]).
                    ab = {"no_prefetch": (True, (), ("--no-prefetch",)),
                          "dense": (False, (), ())}
                    if dtype == "bf16":
                        ab["no_dot"] = (True, ("--module-attr",
                                               "rock.cpu_decode_dot=false"), ())
                    for name, (paged, gargs, rargs) in ab.items():
                        ar = run_rock(bin_dir,
                                      decode_args(dtype, B, L, paged) + list(gargs),
                                      args.repeats, run_args=rargs)
                        if "kernel_time_ms" in ar:
                            row["rock_gbps_" + name] = (
                                nbytes / (ar["kernel_time_ms"] * 1e-3) / 1e9)
                if dtype == "f32":
                    t = peers.numpy_attention(B, HQ, HKV, 1, L, D, reps=args.repeats)
                    row["numpy_gbps"] = nbytes / t / 1e9
                    t = peers.torch_attention(B, HQ, HKV, 1, L, D, reps=args.repeats)
                    if t:
                        row["torch_gbps"] = nbytes / t / 1e9
                    c = subprocess.run([os.path.join(bin_dir, "rock-c-decode"),
                                        str(B), str(HQ), str(HKV), str(L), str(D),
                                        str(args.repeats)],
                                       capture_output=True, text=True)
                    m = re.search(r"c_decode_gbps:\s*([0-9.]+)", c.stdout)
                    if m:
                        row["c_loop_gbps"] = float(m.group(1))
                results["decode"].append(row)
                print("decode", json.dumps({k: v for k, v in row.items()
                                            if k != "rock"}), rr.get("error", ""))

    Ss = args.seq_q or ([128] if quick else [1024, 4096])
    pdtypes = ["f32", "bf16"] if quick else ["f32", "bf16", "i8"]
    if args.dtypes:
        pdtypes = [t for t in args.dtypes if t in ("f32", "bf16", "i8")]
    if "prefill" not in sections:
        pdtypes = []
    causals = {"both": (False, True), "yes": (True,), "no": (False,)}
    for dtype in pdtypes:
        for S in Ss:
            for causal in causals[args.causal]:
                results["prefill"].append(
                    prefill_case(bin_dir, dtype, S, causal, args, jit_env))

    for name, a in (("decode", decode_args("f32", 1, 256 if quick else 4096)),
                    ("prefill", prefill_args(128 if quick else 1024, True))):
        if "compile" not in sections:
            break
        rr = run_rock(bin_dir, a, 1)
        results["compile"].append({"kernel": name,
                                   "compile_time_ms": rr.get("compile_time_ms"),
                                   "error": rr.get("error")})
        print(f"compile {name}: {rr.get('compile_time_ms')} ms")

    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "params", "rock", "numpy", "torch", "c_loop",
                    "ratio_vs_limit", "ratio_vs_paged_read"])
        for r in results["decode"]:
            w.writerow(["decode", f"{r['dtype']} B={r['B']} L={r['L']}",
                        r.get("rock_gbps"), r.get("numpy_gbps"),
                        r.get("torch_gbps"), r.get("c_loop_gbps"),
                        r.get("rock_vs_probe"), r.get("rock_vs_paged_probe")])
        for r in results["prefill"]:
            w.writerow(["prefill",
                        f"{r['dtype']} S={r['S']} causal={r['causal']}",
                        r.get("rock_gflops"), r.get("numpy_gflops"),
                        r.get("torch_gflops"), None, r.get("rock_vs_peak"),
                        None])
    try:
        import plots
        plots.write(results, args.out)
    except Exception as e:  # plots are a convenience; results stand alone
        print(f"plots skipped: {e}")
    print(f"results in {args.out}/results.json")


if __name__ == "__main__":
    main()
