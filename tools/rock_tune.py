#!/usr/bin/env python3
"""rock-tune: tune attention kernels over rock's tuning space into a perf DB.

As rocMLIR's tuningRunner.py / rocmlir-tuning-driver (docs/tuning.md): for
each problem, the configs `rock-gen --emit-tuning-space` lists are timed on
the same inputs, the fastest is verified, and one row per problem goes
into a perf DB keyed by `rock-gen --emit-tuning-key`, which rock-gen (and
rock-run --perf-db) consult afterwards.

CPU (in place):
  rock-tune [--space quick|full] [--check] [--db FILE] PROBLEM-FLAGS...
  rock-tune --problems FILE ...      one line of rock-gen flags a problem
  rock-tune --bench-cpu ...          the CPU bench's decode/prefill shapes
Each problem is one `rock-gen ... -pv --perf-db none | rock-run
--tune-configs` run over the space (default full: the CPU's is small):
every config is compiled, then all are timed in 3 interleaved rounds (the
best run of each counts: other processes on a shared CPU only ever add
time), the load average is reported, and rock-run verifies the fastest
against its f64 reference. --check also times the full space (when the
space is quick) and re-times the heuristic, the winner and the full
space's best in a second run: the table says whether the winner is within
2 % of the exhaustive best.

GPU (a round trip, as rock-sweep's):
  rock-tune --prepare DIR --arch sm_90 [--cases bench,offtable] [--jobs N]
compiles, here, the heuristic and every config of each case (the quick
space; the full one for the off-table cases, for the 2 % check) into cubin
bundles (`rock-run --compile-only --cubin`), with DIR/manifest.json, this
script, the device half (tune_device.py, attention_bench.py), rock-run-gpu
and DIR/go.sh. On the GPU machine:
  bash DIR/go.sh             (python3 DIR/rock-tune --run DIR ...)
times each config in one process (CUDA events, L2 kept cold), checks every
output against f32 SDPA, re-times the finalists, verifies the winners
(rock-run-gpu's f64 reference where the problem is small), prints the
table and writes the perf DB under $OUT.

Exit status: 0 when every problem tuned and its winner verified (on the
GPU also: tuned at or below the heuristic, exhaustive cases within 2 %),
1 when one did not, 2 on usage errors.
"""

import argparse
import datetime
import hashlib
import importlib.util
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
DB_COLUMNS = ("arch", "numCUs", "testVector", "perfConfig", "us",
              "tuningSpace", "rockVersion", "device", "timestamp")
ROUNDS = 3  # rock-run --tune-configs' interleaved rounds (TUNE_ROUNDS)
CASE_BUDGET = 8  # --run: seconds of screening a case


# ---------------------------------------------------------------------------
# The perf DB (docs/tuning.md)

def db_header(device, version):
    return (f"# rock perf DB (docs/tuning.md): rock {version}, {device}\n"
            "# " + "\t".join(DB_COLUMNS) + "\n")


def db_row(key, perf_config, us, space, version, device):
    arch, num_cu, vector = key.split("\t")
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")
    vals = (arch, num_cu, vector, perf_config, f"{us:.2f}", space, version,
            device.replace("\t", " "), stamp)
    return "\t".join(vals) + "\n"


def write_db(path, rows, device, version):
    """Writes (or appends to) the DB at `path`: a new file gets the header;
    rows are appended, so a re-tune's row (the last of its key) wins."""
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a") as f:
        if new:
            f.write(db_header(device, version))
        for r in rows:
            f.write(r)


def rock_version():
    """The rock commit (git describe of this script's tree; $ROCK_VERSION
    for a copy outside the tree)."""
    if os.environ.get("ROCK_VERSION"):
        return os.environ["ROCK_VERSION"]
    try:
        return subprocess.run(
            ["git", "-C", HERE, "describe", "--always", "--dirty"],
            capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu_device():
    model = platform.processor() or "cpu"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


# ---------------------------------------------------------------------------
# rock-gen: keys and spaces

def tool(name, tools_dir):
    if tools_dir:
        return os.path.join(tools_dir, name)
    if os.access(os.path.join(HERE, name), os.X_OK):
        return os.path.join(HERE, name)
    return shutil.which(name) or name


def gen_out(gen, flags, extra):
    p = subprocess.run([gen] + flags + extra, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError((p.stderr.strip().splitlines() or ["?"])[-1])
    return p.stdout


def tuning_key(gen, flags):
    return gen_out(gen, flags, ["--emit-tuning-key"]).rstrip("\n")


def tuning_space(gen, flags, kind):
    """[(config, schedule)] of the `kind` space, and the heuristic's
    schedule (rock-gen --emit-tuning-space=KIND -v)."""
    out = gen_out(gen, flags, [f"--emit-tuning-space={kind}", "-v"])
    heur, space = None, []
    for line in out.splitlines():
        if line.startswith("# heuristic: "):
            heur = line[len("# heuristic: "):]
        elif line and not line.startswith("#"):
            cfg, _, sched = line.partition("\t")
            space.append((cfg, sched))
    return space, heur


# ---------------------------------------------------------------------------
# CPU: rock-run --tune-configs

TUNE_LINE = re.compile(r"^tune: (\d+) median_ms ([0-9.]+) min_ms ([0-9.]+) "
                       r"(\S+)$", re.M)
LOAD_LINE = re.compile(r"^tune: load average ([0-9.]+) before, ([0-9.]+) "
                       r"after", re.M)


def verify_flags(flags):
    """The winner is verified at rock-run's default gates (docs/semantics.md:
    precision-derived) unless the flags give others."""
    return ["-pv"]


def tune_cpu_run(gen, run, flags, configs, repeats, run_args):
    """One rock-run --tune-configs over `configs` (["heuristic", ...]):
    returns ({index: (median, min)}, verdict ok, load pair, output)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(configs) + "\n")
        path = f.name
    gflags = flags + verify_flags(flags)
    cmd = (f"{shlex.quote(gen)} {' '.join(map(shlex.quote, gflags))} "
           f"--perf-db none | {shlex.quote(run)} --tune-configs "
           f"{shlex.quote(path)} --time --kernel-repeats {repeats} "
           f"{' '.join(map(shlex.quote, run_args))}")
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd],
                       capture_output=True, text=True)
    os.unlink(path)
    times = {int(m.group(1)): (float(m.group(2)), float(m.group(3)))
             for m in TUNE_LINE.finditer(p.stdout)}
    m = LOAD_LINE.search(p.stdout)
    load = (float(m.group(1)), float(m.group(2))) if m else (None, None)
    ok = p.returncode == 0 and "[1 1 1]" in p.stdout
    return times, ok, load, p.stdout + p.stderr


def best_of(times, indices):
    """The index of `indices` with the least best-run time (or None)."""
    have = [i for i in indices if i in times]
    return min(have, key=lambda i: times[i][1]) if have else None


def est_seconds(flags):
    """A rough time of one CPU run: 40 GFLOP/s or 10 GB/s of K/V, the slower
    (to size the runs per round)."""
    def val(name, dflt):
        return int(flags[flags.index(name) + 1]) if name in flags else dflt
    B, hq = val("-g", 1), val("-num_heads_q", 1)
    sq, sk, d = val("-seq_len_q", 1), val("-seq_len_k", 1), \
        val("-head_dim_qk", 1)
    flops = 4.0 * B * hq * sq * sk * d * (0.5 if "-causal" in flags else 1)
    return max(flops / 40e9, kv_bytes_of(flags) / 10e9)


def runs_per_round(a, flags):
    """--repeats, fewer for slow problems: about 0.5 s a config a round."""
    return max(1, min(a.repeats, int(0.5 / max(est_seconds(flags), 1e-6))))


def tune_cpu_problem(a, gen, run, flags):
    """Tunes one problem on the CPU over the `a.space` space (default full:
    the CPU's is small); --check also times the full space and re-times the
    finalists. Returns a result dict."""
    kind = a.space or ("quick" if a.check else "full")
    key = tuning_key(gen, flags)
    space, heur = tuning_space(gen, flags, kind)
    full = space if kind == "full" else \
        (tuning_space(gen, flags, "full")[0] if a.check else None)
    timed = full if full is not None else space
    configs = ["heuristic"] + [c for c, _ in timed]
    scheds = [heur] + [s for _, s in timed]
    reps = runs_per_round(a, flags)
    times, ok, load, out = tune_cpu_run(gen, run, flags, configs, reps,
                                        a.run_args)
    res = {"flags": flags, "key": key, "space": kind, "timed": len(timed),
           "load": [load], "verified": ok, "runs": reps,
           "times": {configs[i]: t[1] for i, t in sorted(times.items())}}
    if not times:
        res["error"] = (out.strip().splitlines() or ["no output"])[-1]
        return res
    in_space = {s for _, s in space}
    ti = best_of(times, [i for i in range(1, len(configs))
                         if scheds[i] in in_space]) or 0
    final = {"heuristic": 0, "tuned": ti}
    if a.check:
        final["full"] = best_of(times, range(len(configs)))
    # A finalist with the heuristic's schedule is the heuristic's kernel:
    # one kernel, one measurement.
    final = {k: 0 if scheds[i] == heur else i for k, i in final.items()}
    if a.check:
        # The finalists again, on their own (fresh inputs, more runs).
        idx = sorted(set(final.values()))
        t2, ok2, load2, out2 = tune_cpu_run(
            gen, run, flags, [configs[i] for i in idx], 2 * reps, a.run_args)
        res["load"].append(load2)
        res["verified"] = ok and ok2
        times = {i: t2[j] for j, i in enumerate(idx) if j in t2}
    ms = {k: times[i][1] for k, i in final.items() if i in times}
    # The heuristic's config when the winner is not faster: the DB never
    # records a config slower than the heuristic as measured last.
    win = ti if ms.get("tuned", 1e30) < ms.get("heuristic", 1e30) else 0
    win_cfg = configs[win] if win else (space[0][0] if space else None)
    res.update(ms=ms, winner=win_cfg, winner_sched=scheds[win],
               same_as_heuristic=scheds[win] == heur)
    exhaustive_ratio(res)
    return res


def exhaustive_ratio(res):
    """--check: the tuned time (the quick winner, or the heuristic where
    that re-timed faster) over the exhaustive best, the least re-timed
    finalist (all of them are in the full space)."""
    ms = res.get("ms", {})
    if "full" in ms and "tuned" in ms:
        res["exhaustive_ms"] = min(ms.values())
        res["ratio"] = min(ms["tuned"], ms["heuristic"]) / \
            res["exhaustive_ms"]


def cpu_bench_problems():
    """The shapes of bench/run.py: paged GQA decode (32/8, d 128, 16-token
    pages) f32 / bf16, B 1 / 16, L 4k / 16k / 64k, and f32 prefill S 1k /
    4k, causal and not."""
    probs = []
    for dtype in ("f32", "bf16"):
        for B in (1, 16):
            for L in (4096, 16384, 65536):
                ps = 16 * 128
                probs.append([
                    "--operation", "attention", "-t", dtype, "-g", str(B),
                    "-num_heads_q", "32", "-num_heads_kv", "8",
                    "-seq_len_q", "1", "-seq_len_k", str(L),
                    "-head_dim_qk", "128", "-head_dim_v", "128",
                    "--with-attn-scale=false", "--paged-attention",
                    "--page-size", str(ps), "--num-pages",
                    str(8 * L * 128 // ps)])
    for S in (1024, 4096):
        for causal in (False, True):
            probs.append(["--operation", "attention", "-t", "f32", "-g", "1",
                          "-num_heads_q", "32", "-num_heads_kv", "8",
                          "-seq_len_q", str(S), "-seq_len_k", str(S),
                          "-head_dim_qk", "128", "-head_dim_v", "128"] +
                         (["-causal"] if causal else []))
    return probs


def kv_bytes_of(flags):
    """K + V bytes of a problem's flags (for the memory guard)."""
    def val(name, dflt):
        return int(flags[flags.index(name) + 1]) if name in flags else dflt
    size = {"f32": 4, "f16": 2, "bf16": 2, "i8": 1}[
        flags[flags.index("-t") + 1] if "-t" in flags else "f32"]
    return 2 * val("-g", 1) * val("-num_heads_kv", 1) * \
        val("-seq_len_k", 1) * val("-head_dim_qk", 1) * size


def mem_available():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 1 << 62


def fmt_ms(ms):
    return "-" if ms is None else f"{ms:.3f}"


def short(flags):
    skip = {"--operation", "attention", "--with-attn-scale=false"}
    return " ".join(f for f in flags if f not in skip)


def tune_cpu(a, problems):
    gen, run = tool("rock-gen", a.tools_dir), tool("rock-run", a.tools_dir)
    device, version = cpu_device(), rock_version()
    rows, results, bad = [], [], 0
    for flags in problems:
        need = 2.5 * kv_bytes_of(flags)
        if need > mem_available():
            print(f"skipped (memory: needs ~{need / 2**30:.1f} GiB): "
                  f"{short(flags)}", flush=True)
            results.append({"flags": flags, "error": "skipped (memory)"})
            continue
        start = time.time()
        r = tune_cpu_problem(a, gen, run, flags)
        r["seconds"] = time.time() - start
        results.append(r)
        ok = "winner" in r and r["verified"]
        bad += not ok
        if ok and r["winner"]:
            rows.append(db_row(r["key"], r["winner"], 1e3 * min(
                r["ms"].get("tuned", 1e30), r["ms"]["heuristic"]),
                r["space"], version, device))
        print(json.dumps(r), flush=True)
    if a.db and rows:
        write_db(a.db, rows, device, version)
    print(cpu_table(results, device, a))
    return 1 if bad else 0


def cpu_table(results, device, a):
    lines = [f"CPU: {device}; best of {ROUNDS} rounds x up to {a.repeats} "
             "runs (ms)",
             "| problem | space | heuristic | tuned | exhaustive | verdict |"
             " load |", "|---|---|---|---|---|---|---|"]
    for r in results:
        if "ms" not in r:
            lines.append(f"| {short(r['flags'])} | | | | | "
                         f"{r.get('error', 'failed')} | |")
            continue
        ms = r["ms"]
        tuned = min(ms.get("tuned", 1e30), ms["heuristic"])
        verdict = "verified" if r["verified"] else "NOT VERIFIED"
        if "ratio" in r:
            verdict += (f", within {100 * (r['ratio'] - 1):+.1f} % of "
                        "exhaustive" + (" (ok)" if r["ratio"] <= 1.02
                                        else " (MISSED)"))
        if r.get("same_as_heuristic"):
            verdict += ", heuristic's schedule"
        load = ", ".join(f"{x[0]}" for x in r["load"] if x[0] is not None)
        lines.append(f"| {short(r['flags'])} | {r['space']} {r['timed']} | "
                     f"{fmt_ms(ms['heuristic'])} | {fmt_ms(tuned)} | "
                     f"{fmt_ms(r.get('exhaustive_ms'))} | {verdict} | "
                     f"{load} |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# GPU: --prepare

def offtable_cases():
    """At least 12 shapes off the bench table (bf16 decode, q 1): GQA ratios
    1-16, head dims 64 / 128 / 256, 16- and 64-token pages, B 1-64, both K
    layouts (dense = [keys][d], --transK; kmaj = rocMLIR's default
    [d][keys]); KV caches of 32 MiB - 1 GiB. Variant names as
    bench/gpu/cases.py's."""
    spec = [  # name, B, Hq, Hkv, D, L, variant
        ("R1-d128-B8-L8k", 8, 32, 32, 128, 8192, "dense"),
        ("R4-d128-B16-L16k", 16, 32, 8, 128, 16384, "kmaj"),
        ("R4-d128-B16-L16k", 16, 32, 8, 128, 16384, "dense"),
        ("R8-d128-B8-L32k", 8, 64, 8, 128, 32768, "dense"),
        ("R8-d128-B8-L32k", 8, 64, 8, 128, 32768, "p16"),
        ("R4-d128-B64-L2k", 64, 32, 8, 128, 2048, "p16"),
        ("R16-d128-B4-L16k", 4, 128, 8, 128, 16384, "dense"),
        ("R2-d64-B32-L4k", 32, 16, 8, 64, 4096, "p64"),
        ("R8-d256-B4-L8k", 4, 32, 4, 256, 8192, "dense"),
        ("R1-d64-B1-L32k", 1, 16, 16, 64, 32768, "kmaj"),
        ("R16-d256-B2-L16k", 2, 64, 4, 256, 16384, "p64"),
        ("R2-d128-B1-L128k", 1, 8, 4, 128, 131072, "p64"),
        ("R8-d64-B16-L8k", 16, 64, 8, 64, 8192, "p16"),
    ]
    out = []
    for name, B, Hq, Hkv, D, L, variant in spec:
        out.append(({"suite": "offtable", "name": name, "B": B, "Hq": Hq,
                     "Hkv": Hkv, "Sq": 1, "Sk": L, "D": D, "t": "bf16",
                     "causal": False, "prefix": None, "csl": None}, variant))
    return out


def smoke_cases():
    """Two small shapes for the lit test of the round trip (--cases smoke):
    a GQA decode (dense, full space) and its 16-token-page variant."""
    c = {"suite": "smoke", "name": "R4-d64-B1-L1k", "B": 1, "Hq": 8,
         "Hkv": 2, "Sq": 1, "Sk": 1024, "D": 64, "t": "bf16",
         "causal": False, "prefix": None, "csl": None}
    return [(c, "dense"), (c, "p16")]


def source_root():
    """rock's source tree ($ROCK_SRC; else the git tree this script is in,
    build/bin/ being inside it; else the parent of tools/)."""
    if os.environ.get("ROCK_SRC"):
        return os.environ["ROCK_SRC"]
    try:
        return subprocess.run(["git", "-C", HERE, "rev-parse",
                               "--show-toplevel"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return os.path.dirname(HERE)


def bench_module():
    sys.path.insert(0, os.path.join(source_root(), "bench", "gpu"))
    import cases
    return cases


def bench_cases(suites):
    """(case, variant) of the bench/gpu suites `suites`: the plain variants
    (dense, kmaj, p16, p64), not the modified ones (dense-mma: ablations)."""
    if not suites:
        return []
    bc = bench_module()
    return [(c, v) for suite in suites for c in bc.cases(suite)
            for v in c["variants"] if "-" not in v]


def gen_flags(case, variant, arch):
    """rock-gen's flags of (case, variant): bench/gpu/cases.py's for `arch`,
    with the harness's f64 verifier kept for rock-run-gpu."""
    bc = bench_module()
    bc.ARCH = arch
    flags = shlex.split(bc.rock_gen_flags(case, variant))
    return [f for f in flags if f != "--verifier=none"]


def compile_bundle(job):
    gen, run, flags, perf, path = job
    pf = ["-perf_config", perf] if perf else []
    cmd = (f"{shlex.quote(gen)} {' '.join(map(shlex.quote, flags + pf))} "
           f"--perf-db none | {shlex.quote(run)} --compile-only --cubin -o "
           f"{shlex.quote(path)}")
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd],
                       capture_output=True, text=True)
    if p.returncode:
        return path, None, (p.stderr.strip().splitlines() or ["?"])[-1]
    with open(path, "rb") as f:
        data = f.read()
    return path, hashlib.sha1(without_compile_ms(data)).hexdigest(), None


def without_compile_ms(data):
    """A bundle's bytes without its compile_ms and harness perf_config lines
    (runtime/bundle.h): two bundles equal but for them run the same
    kernels."""
    return re.sub(rb"\n(compile_ms|harness perf_config) [^\n]*", b"",
                  data[:data.find(b"\nobject ") + 1]) + \
        data[data.find(b"\nobject ") + 1:]


def plan_entry(a, gen, case, variant):
    """The manifest entry of (case, variant): its key, the heuristic's
    schedule and the configs to compile (the quick space; the full one
    for exhaustive cases)."""
    flags = gen_flags(case, variant, a.arch)
    name = f"{case['suite']}-{variant}-{case['name']}"
    exhaustive = case["suite"] == "offtable" or \
        (case["suite"] == "smoke" and variant == "dense")
    try:
        key = tuning_key(gen, flags)
        quick, heur = tuning_space(gen, flags, "quick")
        space = tuning_space(gen, flags, "full")[0] if exhaustive else quick
        if a.max_configs:
            space = space[:a.max_configs]
    except RuntimeError as e:
        print(f"rock-tune: {name}: {e}", file=sys.stderr)
        return {"name": name, "error": str(e)}
    qs = {s for _, s in quick}
    e = {"name": name, "case": case, "variant": variant, "key": key,
         "flags": flags, "heuristic_schedule": heur,
         "heuristic": f"{name}/heuristic.bundle",
         "heuristic_config": quick[0][0] if quick else None,
         "exhaustive": exhaustive, "configs": []}
    for i, (cfg, sched) in enumerate(space):
        e["configs"].append({"config": cfg, "schedule": sched,
                             "bundle": f"{name}/c{i:03d}.bundle",
                             "quick": sched in qs})
    return e


def plan(a, gen):
    """The manifest entries of --cases: the off-table (exhaustive) and
    smoke cases first, then the bench rows."""
    want = [x for x in a.cases.split(",") if x]
    cases = bench_cases(("decode", "prefill") if "bench" in want else ())
    full_cases = (offtable_cases() if "offtable" in want else []) + \
        (smoke_cases() if "smoke" in want else [])
    return [plan_entry(a, gen, c, v) for c, v in full_cases + cases]


def coverage(entries):
    """What the exhaustive cases span (the issue's list of shapes)."""
    cs = [(e["case"], e["variant"]) for e in entries
          if e.get("exhaustive")]
    if not cs:
        return "no exhaustive cases"

    def vals(f):
        return ",".join(str(x) for x in sorted({f(c, v) for c, v in cs}))
    return (f"{len(cs)} exhaustive shapes: GQA ratios "
            f"{vals(lambda c, v: c['Hq'] // c['Hkv'])}; head dims "
            f"{vals(lambda c, v: c['D'])}; B {vals(lambda c, v: c['B'])}; "
            f"layouts {vals(lambda c, v: v)}")


def list_plan(entries):
    for e in entries:
        if "error" in e:
            print(f"{e['name']}: {e['error']}")
            continue
        q = sum(c["quick"] for c in e["configs"])
        print(f"{e['name']}: {len(e['configs'])} configs ({q} quick)"
              + (", exhaustive" if e["exhaustive"] else ""))
    n = sum(len(e.get("configs", ())) + 1 for e in entries)
    print(f"rock-tune: {len(entries)} cases, {n} bundles to compile; "
          f"{coverage(entries)}")
    return 1 if any("error" in e for e in entries) else 0


def compile_all(a, gen, run, entries, stage):
    """Compiles every bundle of `entries` into `stage`; bundles equal to an
    earlier one of their case are dropped (same_as). Returns the count of
    failures."""
    jobs = []
    for e in entries:
        if "configs" not in e:
            continue
        os.makedirs(os.path.join(stage, e["name"]))
        jobs.append((gen, run, e["flags"], None,
                     os.path.join(stage, e["heuristic"])))
        jobs += [(gen, run, e["flags"], c["config"],
                  os.path.join(stage, c["bundle"])) for c in e["configs"]]
    with ThreadPoolExecutor(a.jobs) as ex:
        done = {p: (h, err) for p, h, err in ex.map(compile_bundle, jobs)}
    failed = 0
    for e in entries:
        if "configs" not in e:
            continue
        h0, err = done[os.path.join(stage, e["heuristic"])]
        if err:
            e["error"] = f"heuristic: {err}"
            failed += 1
        seen = {h0: "heuristic"} if h0 else {}
        for c in e["configs"]:
            h, err = done[os.path.join(stage, c["bundle"])]
            if err:
                c["error"] = err
                failed += 1
            elif h in seen:  # the same kernels: timed once
                c["same_as"] = seen[h]
                os.unlink(os.path.join(stage, c["bundle"]))
            else:
                seen[h] = c["bundle"]
    return failed


def prepare(a):
    gen, run = tool("rock-gen", a.tools_dir), tool("rock-run", a.tools_dir)
    start, version = time.time(), rock_version()  # the compiler's tree
    entries = plan(a, gen)
    if a.list:
        return list_plan(entries)
    out = os.path.abspath(a.prepare)
    stage = os.path.join(out, "bundles")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(stage)
    failed = compile_all(a, gen, run, entries, stage)
    meta = {"rock_version": version, "arch": a.arch,
            "created": datetime.datetime.now(datetime.timezone.utc)
            .isoformat(timespec="seconds"), "cases": entries}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(meta, f, indent=1)
    with tarfile.open(os.path.join(out, "bundles.tar.gz"), "w:gz") as t:
        t.add(stage, arcname="bundles")
    shutil.rmtree(stage)
    copy_device_side(a, out)
    n = sum(len(e.get("configs", ())) + 1 for e in entries)
    size = sum(os.path.getsize(os.path.join(dp, x))
               for dp, _, xs in os.walk(out) for x in xs)
    print(f"rock-tune: {len(entries)} cases, {n} bundles ({failed} failed "
          f"to compile) in {time.time() - start:.0f} s; {out}: "
          f"{size / 2**20:.1f} MiB; {coverage(entries)}")
    print_estimate(meta, out)
    for e in entries:
        for c in e.get("configs", ()):
            if "error" in c:
                print(f"  {e['name']} {c['config']}: {c['error']}")
    return 1 if failed else 0


# ---------------------------------------------------------------------------
# --ingest: a GPU run's results into the shipped DB and bench/

GPU_BEGIN, GPU_END = "<!-- rock-tune --ingest: begin -->", \
    "<!-- rock-tune --ingest: end -->"


def read_db_rows(path):
    """The rows of a perf DB (the header's width checked), as lines."""
    rows, width = [], None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("# arch\t"):
                width = len(line[2:].rstrip("\n").split("\t"))
            elif line.strip() and not line.startswith("#"):
                if width is None or \
                        len(line.rstrip("\n").split("\t")) != width:
                    raise ValueError(f"{path}:{n}: not a row of the header's "
                                     "width")
                rows.append(line if line.endswith("\n") else line + "\n")
    if width is None:
        raise ValueError(f"{path}: no header line")
    return rows


def ingest(a):
    """Merges DIR/perf-db.tsv into --db (default: the shipped
    tuning/perf-db.tsv; a row replaces the rows of its key) and writes the
    run's summary and table into --results (a section between markers)."""
    src = os.path.abspath(a.ingest)
    root = source_root()
    db = a.db or os.path.join(root, "tuning", "perf-db.tsv")
    results = a.results or os.path.join(root, "bench", "RESULTS-tuning.md")
    try:
        new = read_db_rows(os.path.join(src, "perf-db.tsv"))
        old = read_db_rows(db)
    except (OSError, ValueError) as e:
        print(f"rock-tune: error: {e}", file=sys.stderr)
        return 1
    keys = {tuple(r.split("\t")[:3]) for r in new}
    with open(db) as f:
        head = [x for x in f if x.startswith("#")]
    kept = [r for r in old if tuple(r.split("\t")[:3]) not in keys]
    with open(db, "w") as f:
        f.writelines(head + kept + new)
    with open(os.path.join(src, "summary.txt")) as f:
        summ = f.read().strip()
    with open(os.path.join(src, "table.md")) as f:
        tab = f.read().strip()
    device = new[0].split("\t")[7] if new else "?"
    version = new[0].split("\t")[6] if new else "?"
    section = (f"{GPU_BEGIN}\n## GPU: {device}, rock {version}\n\n"
               "One device call, `bash build-tune-carry/go.sh` "
               "(docs/tuning.md); `rock-tune --ingest` wrote this section "
               f"and {len(new)} rows of {os.path.relpath(db, root)}.\n\n"
               f"```\n{summ}\n```\n\n{tab}\n{GPU_END}\n")
    text = open(results).read() if os.path.exists(results) else \
        "# Tuning results (rock-tune, docs/tuning.md)\n\n"
    if GPU_BEGIN in text:
        text = text[:text.index(GPU_BEGIN)] + section + \
            text[text.index(GPU_END) + len(GPU_END) + 1:]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(results, "w") as f:
        f.write(text)
    raw = a.raw or os.path.join(root, "bench", "gpu", "results",
                                "tune-h200.json")
    shutil.copy(os.path.join(src, "tune.json"), raw)
    print(f"rock-tune: {len(new)} rows into {db} ({len(old) - len(kept)} "
          f"replaced), {results}, {raw}")
    return 0


def print_estimate(meta, out):
    """The device half's expected seconds (tune_device.estimate)."""
    sys.path.insert(0, out)
    import tune_device
    total, by = tune_device.estimate(meta, CASE_BUDGET)
    print(f"rock-tune: the run should take about {total:.0f} s on an H200 ("
          + ", ".join(f"{k} {v:.0f} s" for k, v in sorted(by.items())) +
          f"; the start {tune_device.EST_START_S:.0f} s)")


GO_SH = """#!/bin/bash
# rock-tune's device half (written by rock-tune --prepare): times every
# bundle of this directory on the GPU, prints the table, writes the perf DB
# under $OUT (default /tmp/rock-tune-out).
C=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/rock-tune-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export ROCK_RUN_GPU="$C/rock-run-gpu"
if ! "$ROCK_RUN_GPU" --help >/dev/null 2>&1; then
  echo "carried rock-run-gpu does not start here; building it with cc"
  cc -O2 -std=c11 -I"$C/src/runtime" -I"$C/src/include" \\
    "$C/src/tools/rock_run_gpu.c" "$C"/src/runtime/*.c -lm -ldl \\
    -o /tmp/rock-run-gpu && export ROCK_RUN_GPU=/tmp/rock-run-gpu
fi
# A hard stop past the budget: SIGTERM makes the run write what it has.
timeout -k 10 "${ROCK_TUNE_HARD_S:-200}" \\
  python3 "$C/rock-tune" --run "$C" --out "$OUT" "$@" 2>&1 |
  tee "$OUT/rock-tune.log"
exit ${PIPESTATUS[0]}
"""


def copy_device_side(a, out):
    shutil.copy(os.path.abspath(__file__), os.path.join(out, "rock-tune"))
    for name in ("tune_device.py", "attention_bench.py"):
        shutil.copy(os.path.join(source_root(), "bench", "gpu", name), out)
    # rock-run-gpu's sources, for go.sh to build it there if the carried
    # binary does not start (scripts/gpu-roundtrip.py's list).
    spec = importlib.util.spec_from_file_location(
        "gpu_roundtrip", os.path.join(source_root(), "scripts",
                                      "gpu-roundtrip.py"))
    roundtrip = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(roundtrip)
    roundtrip.copy_runner_sources(out)
    runner = tool("rock-run-gpu", a.tools_dir)
    if os.access(runner, os.X_OK):
        shutil.copy(runner, out)
    with open(os.path.join(out, "go.sh"), "w") as f:
        f.write(GO_SH)
    os.chmod(os.path.join(out, "go.sh"), 0o755)


# ---------------------------------------------------------------------------
# Command line

def parse_args(argv):
    # No -h: rock-gen's single-dash flags (-head_dim_qk) would read as -h.
    ap = argparse.ArgumentParser(
        prog="rock-tune", description=__doc__, allow_abbrev=False,
        add_help=False, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--help", action="help", help="show this help")
    ap.add_argument("--space", choices=("quick", "full"),
                    help="CPU: the tuning space to search (default full: the "
                    "CPU's is small); the GPU round trip searches the quick "
                    "space, the full one for the off-table cases")
    ap.add_argument("--check", action="store_true",
                    help="CPU: also search the full space and re-time the "
                    "heuristic, the winner and the full space's best")
    ap.add_argument("--db", help="perf DB to append the winners to")
    ap.add_argument("--problems", help="file: rock-gen flags, one problem a "
                    "line")
    ap.add_argument("--bench-cpu", action="store_true",
                    help="the CPU bench's decode and prefill shapes")
    ap.add_argument("--repeats", type=int, default=5,
                    help="CPU: runs per config per round (default 5)")
    ap.add_argument("--run-arg", action="append", dest="run_args",
                    default=[], help="CPU: an extra rock-run flag, e.g. "
                    "--run-arg=--cpu=x86-64-v3")
    ap.add_argument("--tools-dir", help="where rock-gen / rock-run are")
    ap.add_argument("--prepare", metavar="DIR",
                    help="GPU: compile the bundles into DIR")
    ap.add_argument("--arch", default="cpu",
                    help="--prepare: the NVIDIA target (sm_90, sm_90a)")
    ap.add_argument("--cases", default="bench,offtable",
                    help="--prepare: bench (bench/gpu decode and prefill), "
                    "offtable (the shapes of offtable_cases), smoke (two "
                    "small ones, for tests)")
    ap.add_argument("--list", action="store_true",
                    help="--prepare: list the cases and their spaces, "
                    "compile nothing")
    ap.add_argument("--max-configs", type=int, default=0,
                    help="--prepare: the first N configs of each space only "
                    "(a test aid: the spaces stay whole by default)")
    ap.add_argument("--jobs", type=int, default=2,
                    help="--prepare: compile jobs (default 2)")
    ap.add_argument("--ingest", metavar="OUT",
                    help="a --run's OUT (perf-db.tsv, summary.txt, "
                    "table.md, tune.json) into --db (default the shipped "
                    "tuning/perf-db.tsv), --results (default "
                    "bench/RESULTS-tuning.md) and "
                    "bench/gpu/results/tune-h200.json")
    ap.add_argument("--results", help="--ingest: the results file")
    ap.add_argument("--raw", help="--ingest: where tune.json goes")
    ap.add_argument("--estimate", metavar="DIR",
                    help="the device seconds a --run of DIR should take")
    ap.add_argument("--run", metavar="DIR",
                    help="GPU machine: time the bundles of DIR")
    ap.add_argument("--out", help="--run: where the DB and logs go")
    ap.add_argument("--budget", type=float, default=170,
                    help="--run: seconds since the start (default 170) "
                    "during which cases start; the rest are skipped")
    ap.add_argument("--case-budget", type=float, default=CASE_BUDGET,
                    help="--run: seconds of screening a case (default "
                    f"{CASE_BUDGET}); "
                    "an exhaustive case cut short says so")
    ap.add_argument("--only", metavar="REGEX",
                    help="--run: the cases whose name matches only")
    ap.add_argument("--fake-gpu", action="store_true",
                    help="--run without a GPU (made-up times, no checks): "
                    "tests the round trip's orchestration only")
    a, rest = ap.parse_known_args(argv)
    a.problem = rest
    modes = sum(bool(x) for x in (a.prepare, a.run, a.estimate, a.ingest,
                                  a.problems, a.bench_cpu, rest))
    if modes != 1:
        ap.error("give one of: PROBLEM-FLAGS, --problems FILE, --bench-cpu, "
                 "--prepare DIR, --run DIR, --estimate DIR, --ingest OUT")
    if a.prepare and not a.arch.startswith("sm_"):
        ap.error("--prepare compiles NVIDIA bundles: give --arch sm_<N>")
    if a.repeats < 1:
        ap.error("--repeats must be positive")
    return a


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if a.run:
        sys.path.insert(0, os.path.abspath(a.run))
        import tune_device
        return tune_device.main(a, sys.modules[__name__])
    if a.prepare:
        return prepare(a)
    if a.ingest:
        return ingest(a)
    if a.estimate:
        with open(os.path.join(a.estimate, "manifest.json")) as f:
            print_estimate(json.load(f), os.path.abspath(a.estimate))
        return 0
    if a.bench_cpu:
        problems = cpu_bench_problems()
    elif a.problems:
        with open(a.problems) as f:
            problems = [shlex.split(x) for x in f
                        if x.strip() and not x.startswith("#")]
    else:
        problems = [a.problem]
    if a.arch != "cpu":
        print("rock-tune: GPU targets tune through --prepare / --run",
              file=sys.stderr)
        return 2
    return tune_cpu(a, problems)


if __name__ == "__main__":
    sys.exit(main())
