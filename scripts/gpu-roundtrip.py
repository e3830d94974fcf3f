#!/usr/bin/env python3
"""GPU round trip: compile bundles here, run and verify them on a GPU machine.

    gpu-roundtrip.py prepare [--build build] [--carry DIR] [--no-pr]
                             [--suites decode,prefill,mtd | --no-bench]
                             [--filter REGEX] [--arch sm_90a] [-j N]
                             [--random-data FLAGS ...] [--mutations]
                             [--accuracy]
                             [--pr-mods base,pp,sw128] [--pr-wgmma-only]
                             [--pr-changed-only] [--configs GLOBS]
                             [--level pr,nightly]
                             [--variants prefill=dense,dense-pp]

`prepare` (on a machine with MLIR, no GPU needed) compiles, for every PR
combination of e2e-configs/Pr*.toml (every dtype, paged and split-KV
included; not with --no-pr), `rock-gen ... --arch sm_90 | rock-run
--compile-only` into a bundle (--arch: another NVIDIA target, e.g. sm_90a
for the wgmma kernels; ptxas then uses it too; --pr-mods: once per chain
of bench/gpu/cases.py modifiers, each against the f64 reference, e.g. the
sm_90a prefill schedule's opt-in switches; --pr-wgmma-only: only the bundles
whose kernels that schedule takes; --pr-changed-only: only the NAME__CHAIN
bundles whose kernels differ from the plain NAME's, i.e. where a switch
changed the code; --configs / --level: other e2e-configs files and levels,
e.g. NightlyGpuPaged.toml), and the benchmark cases of the suites
named (--variants: a suite's variants replaced)
(bench/gpu/cases.py; default decode: bf16 q 1 decode; prefill and mtd are
the tensor-core cases): each the heuristic's kernel (`--perf-db none`) and,
where the perf DB (--perf-db, default the one shipped) has an entry for
the case, a `+tuned` bundle beside it (docs/tuning.md). It writes into DIR
(default ./.gpu-carry):
bundles.tar.gz (with bench/cases.json), manifest.tsv (name, status,
command), ptxas.json (`ptxas -arch=sm_90 -v` of every benchmark kernel:
registers, shared memory, spills), rock-run-gpu (this build's), the
runner's C sources (to rebuild there with the machine's cc if the carried
binary does not start), the read probe's PTX and the device scripts. Each
--random-data FLAGS (e.g. '-rand 1', repeatable) adds a set of PR bundles
with %random_data set to FLAGS (named ...__rand<N>); --mutations adds the
bundles of test/Tools/rock-run-mutations.mlir (bundles/mut/), --accuracy
the cases of bench/accuracy.py (DIR/accuracy/). Then, on the GPU machine,
from the directory that holds DIR:

    bash DIR/device-run.sh [pr|bench|accel|all]
    bash DIR/numerics-run.sh        # PR bundles, mutations, accuracy

runs every PR bundle with rock-run-gpu (the same `[r a d]` verdicts and exit
codes as rock-run), then the benchmark (bench: decode; accel: prefill and
mtd, with a bf16 matmul rate), writing the results under $OUT (or
/tmp/rock-gpu-out). bench/RESULTS-gpu.md and bench/RESULTS-gpu-accel.md
record such runs.
"""
import argparse
import concurrent.futures
import fnmatch
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "e2e"))
import toml_expand  # noqa: E402

BENCH = os.path.join(ROOT, "bench", "gpu")
sys.path.insert(0, BENCH)
import cases as bench_cases  # noqa: E402
from attention_bench import read_bundle  # noqa: E402

ARCH = bench_cases.ARCH
TAIL = ("nvvm-attach-target{chip=sm_90 O=3},gpu.module(convert-scf-to-cf,"
        "convert-vector-to-llvm,convert-gpu-to-nvvm{use-bare-ptr-memref-"
        "call-conv=1}),reconcile-unrealized-casts,"
        "gpu-module-to-binary{format=isa}")
# runtime/ files rock-run-gpu is built from (no MLIR).
RUNNER_SRC = ("buffer", "bundle", "combine", "cuda", "gpu_run", "half",
              "harness_types", "init", "metrics", "mutate", "npy", "paged",
              "problem", "reference", "rng", "run_options", "session",
              "timer", "verdict")
# Header-only rock-c headers those files include.
RUNNER_C_HEADERS = ("Sizes.h",)
# Header-only support/ headers they include.
RUNNER_SUPPORT_HEADERS = ("thresholds.h",)


def pr_jobs(build, bundles, mods=("base",), random_data="", tag="",
            configs="Pr*.toml", levels="pr"):
    """(name, shell command) for every PR combination, compiling a bundle;
    once per modifier chain of `mods` (bench/gpu/cases.py MODS, joined by
    dashes, e.g. pp-sw128; "base": none), named NAME__CHAIN but for base;
    `random_data` is %random_data, `tag` a further suffix of the names;
    `configs` (comma-separated globs) and `levels` pick the e2e-configs
    files and levels."""
    jobs = []
    for chain in mods:
        flags = " ".join(bench_cases.MODS[m] for m in chain.split("-")
                         if m != "base")
        suffix = ("" if chain == "base" else "__" + chain) + tag
        jobs += _pr_jobs(build, bundles, flags, suffix, random_data, configs,
                         levels)
    return jobs


def _pr_jobs(build, bundles, flags, suffix, random_data, configs, levels):
    subs = {"arch": ARCH, "random_data": random_data, "rock_gen_flags": flags,
            "rocmlir_gen_flags": "", "pv": "-pv"}
    tools = {"rock-gen": os.path.join(build, "bin", "rock-gen"),
             "rock-run": os.path.join(build, "bin", "rock-run")}
    jobs = []
    globs = [g for g in configs.split(",") if g]
    want = set(levels.split(","))
    configs = os.path.join(ROOT, "e2e-configs")
    for toml in sorted(os.listdir(configs)):
        if not (toml.endswith(".toml") and
                any(fnmatch.fnmatch(toml, g) for g in globs)):
            continue
        spec = toml_expand.load(os.path.join(configs, toml))
        for st in spec.suite_tests():
            if st.level not in want:
                continue
            for c in st.combos:
                if c.excluded:
                    continue
                name = f"{toml[:-5]}__{st.suite}__{st.t}__{c.o}{suffix}"
                cmd = toml_expand.exec_command(spec, c, subs, tools)
                out = os.path.join(bundles, "pr", name + ".bundle")
                jobs.append((name, f"{cmd} --compile-only -o "
                             f"{shlex.quote(out)}"))
    return jobs


# The problems of test/Tools/rock-run-mutations.mlir: (name, flags).
MUTATION_PROBLEM = ("-g 2 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 32 "
                    "-seq_len_k 96 -head_dim_qk 32 -head_dim_v 32 -causal "
                    "--with-attn-scale -rand_type float -pv")


def mutation_jobs(build, bundles):
    gen = os.path.join(build, "bin", "rock-gen")
    run = os.path.join(build, "bin", "rock-run")
    jobs = []
    for t in ("f32", "f16", "bf16", "i8"):
        for name, extra in ((t, "-rand 1"),
                            (t + "-split", "-split_kv 4 -return_lse -rand 2")):
            out = os.path.join(bundles, "mut", name + ".bundle")
            jobs.append((name, f"{gen} -t {t} {MUTATION_PROBLEM} {extra} "
                         f"--arch {ARCH} | {run} --compile-only -o "
                         f"{shlex.quote(out)}"))
    return jobs


def holds_wgmma(path):
    """Whether the bundle at `path` has a kernel on warpgroup MMA."""
    try:
        return any(o["format"] == "ptx" and b"wgmma.mma_async" in o["data"]
                   for o in read_bundle(path)["objects"])
    except Exception:  # a failed compile leaves no bundle
        return False


def keep_changed(stage, mods):
    """--pr-changed-only: keeps the PR bundles NAME__CHAIN (CHAIN in `mods`,
    not base) whose kernel objects differ from the plain NAME's, drops the
    others and the plain ones; returns how many of each were dropped."""
    pr = os.path.join(stage, "pr")
    chains = ["__" + m for m in mods if m != "base"]

    def objects(name):
        path = os.path.join(pr, name + ".bundle")
        if not os.path.exists(path):
            return None
        return [o["data"] for o in read_bundle(path)["objects"]]
    same = plain = 0
    for f in sorted(os.listdir(pr)):
        name = f[:-len(".bundle")]
        chain = next((c for c in chains if name.endswith(c)), None)
        if chain is None:
            plain += 1
            continue
        if objects(name) == objects(name[:-len(chain)]):
            same += 1
            os.remove(os.path.join(pr, f))
    for f in sorted(os.listdir(pr)):
        if not any(f[:-len(".bundle")].endswith(c) for c in chains):
            os.remove(os.path.join(pr, f))
    return plain, same


def parse_variants(specs):
    """--variants SUITE=V1,V2 (repeatable) as {suite: [variants]}."""
    out = {}
    for spec in specs or ():
        suite, sep, vs = spec.partition("=")
        if not sep or suite not in bench_cases.SUITES or not vs:
            sys.exit(f"--variants {spec!r}: want SUITE=VARIANT,... with SUITE "
                     f"one of {','.join(bench_cases.SUITES)}")
        for v in vs.split(","):
            bad = [m for m in v.split("-")[1:] if m not in bench_cases.MODS]
            if bad:
                sys.exit(f"--variants: {v!r}: unknown modifier {bad[0]!r} "
                         f"(have {','.join(bench_cases.MODS)})")
        out[suite] = list(dict.fromkeys(vs.split(",")))  # once each
    return out


def has_db_entry(gen, flags, db):
    """Whether the perf DB `db` has an entry for the problem of `flags`
    (rock-gen -v says where its perf_config came from)."""
    p = subprocess.run(f"{gen} {flags} --perf-db {shlex.quote(db)} -v "
                       f"-o /dev/null", shell=True, capture_output=True,
                       text=True)
    return " from perf DB " in p.stderr


def bench_jobs(build, bundles, suites, variants=None, db=None):
    """(name, shell command) for every (case, variant) of `suites` (a
    suite's variants replaced by variants[suite] where given); also returns
    the cases (written to bench/cases.json for the device side). Each
    variant is the heuristic's kernel (--perf-db none); where the perf DB
    `db` has an entry for it, a `<variant>+tuned` bundle too, so that the
    bench reports the two side by side (docs/tuning.md)."""
    gen = os.path.join(build, "bin", "rock-gen")
    run = os.path.join(build, "bin", "rock-run")
    jobs, table = [], []
    for suite in suites:
        for case in bench_cases.cases(suite):
            if suite in (variants or {}):
                case["variants"] = list(variants[suite])
            case["bundles"] = {}
            for v in list(case["variants"]):
                flags = bench_cases.rock_gen_flags(case, v)
                kinds = [("", "--perf-db none")]
                if db and has_db_entry(gen, flags, db):
                    kinds.append(("+tuned", f"--perf-db {shlex.quote(db)}"))
                    case["variants"].append(v + "+tuned")
                for suffix, perf in kinds:
                    name = bench_cases.bundle_name(case, v + suffix)
                    out = os.path.join(bundles, "bench", name + ".bundle")
                    case["bundles"][v + suffix] = name + ".bundle"
                    jobs.append((name, f"{gen} {flags} {perf} | {run} "
                                 f"--compile-only -o {shlex.quote(out)}"))
            table.append(case)
    return jobs, table


PTXAS_FN = re.compile(r"Compiling entry function '(\w+)'")
PTXAS_SPILL = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                         r"(\d+) bytes spill loads")
PTXAS_USED = re.compile(r"Used (\d+) registers(?:, used \d+ barriers)?"
                        r"(?:, (\d+) bytes smem)?")


def ptxas_one(ptxas, path):
    """`ptxas -arch=<the PTX's .target> -v` of every PTX object of the
    bundle at `path`:
    a list of {object, kernel, regs, smem, stack, spill_st, spill_ld}."""
    rows = []
    for i, o in enumerate(read_bundle(path)["objects"]):
        if o["format"] != "ptx":
            continue
        target = re.search(rb"^\.target (sm_\w+)", o["data"], re.M)
        arch = target.group(1).decode() if target else ARCH
        with tempfile.NamedTemporaryFile(suffix=".ptx") as f:
            f.write(o["data"])
            f.flush()
            p = subprocess.run([ptxas, f"-arch={arch}", "-v", f.name, "-o",
                                os.devnull], capture_output=True, text=True)
        row = None
        for line in (p.stdout + p.stderr).splitlines():
            m = PTXAS_FN.search(line)
            if m:
                row = {"object": i, "kernel": m.group(1)}
                rows.append(row)
            m = PTXAS_SPILL.search(line)
            if m and row is not None:
                row.update(stack=int(m.group(1)), spill_st=int(m.group(2)),
                           spill_ld=int(m.group(3)))
            m = PTXAS_USED.search(line)
            if m and row is not None:
                row.update(regs=int(m.group(1)), smem=int(m.group(2) or 0))
        if p.returncode != 0:
            rows.append({"object": i, "error": p.stderr.strip()[-200:]})
    return rows


def compile_one(job):
    name, cmd = job
    start = time.time()
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd],
                       capture_output=True, text=True)
    secs = time.time() - start
    msg = (p.stderr.strip().splitlines() or [""])[-1]
    status = "ok" if p.returncode == 0 else f"compile-failed ({msg})"
    return name, status, secs, cmd


def read_probe_ptx(carry):
    """Compiles bench/gpu/read_probe.mlir with the upstream tail; returns
    the PTX text."""
    mlir_opt = shutil.which("mlir-opt") or "/usr/lib/llvm-22/bin/mlir-opt"
    p = subprocess.run(
        [mlir_opt, os.path.join(ROOT, "bench", "gpu", "read_probe.mlir"),
         f"--pass-pipeline=builtin.module({TAIL})"],
        capture_output=True, text=True, check=True)
    m = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', p.stdout)
    return re.sub(r"\\([0-9A-Fa-f]{2})",
                  lambda x: chr(int(x.group(1), 16)), m.group(1))


def copy_runner_sources(carry):
    """rock-run-gpu's C sources into CARRY/src, to build it on the GPU
    machine with its cc when the carried binary does not start there
    (device-run.sh; rock-tune's go.sh): cc -O2 -std=c11 -ISRC/runtime
    -ISRC/include SRC/tools/rock_run_gpu.c SRC/runtime/*.c -lm -ldl."""
    src = os.path.join(carry, "src")
    os.makedirs(os.path.join(src, "runtime"))
    os.makedirs(os.path.join(src, "tools"))
    for n in RUNNER_SRC:
        for ext in (".c", ".h"):
            path = os.path.join(ROOT, "runtime", n + ext)
            if os.path.exists(path):
                shutil.copy(path, os.path.join(src, "runtime"))
    for h in ("harness_types.h", "problem.h", "buffer.h", "rng.h"):
        shutil.copy(os.path.join(ROOT, "runtime", h),
                    os.path.join(src, "runtime"))
    shutil.copy(os.path.join(ROOT, "tools", "rock_run_gpu.c"),
                os.path.join(src, "tools"))
    os.makedirs(os.path.join(src, "include", "rock-c"))
    for h in RUNNER_C_HEADERS:
        shutil.copy(os.path.join(ROOT, "capi", "include", "rock-c", h),
                    os.path.join(src, "include", "rock-c"))
    os.makedirs(os.path.join(src, "include", "support"))
    for h in RUNNER_SUPPORT_HEADERS:
        shutil.copy(os.path.join(ROOT, "support", h),
                    os.path.join(src, "include", "support"))


def prepare(args):
    global ARCH
    ARCH = bench_cases.ARCH = args.arch
    carry = os.path.abspath(args.carry)
    build = os.path.abspath(args.build)
    stage = os.path.join(carry, "stage")
    shutil.rmtree(carry, ignore_errors=True)
    for d in ("pr", "bench", "mut"):
        os.makedirs(os.path.join(stage, d))
    mods = args.pr_mods.split(",")
    if args.pr_changed_only and "base" not in mods:
        mods = ["base"] + mods  # compiled to compare against, then dropped
    jobs = [] if args.no_pr else pr_jobs(build, stage, mods,
                                         configs=args.configs,
                                         levels=args.level)
    for i, rand in enumerate(args.random_data or []):
        jobs += pr_jobs(build, stage, random_data=rand, tag=f"__rand{i}")
    if args.mutations:
        jobs += mutation_jobs(build, stage)
    table = []
    if not args.no_bench:
        suites = [x for x in args.suites.split(",") if x]
        db = args.perf_db or os.path.join(build, "share", "rock",
                                          "perf-db.tsv")
        bench, table = bench_jobs(build, stage, suites,
                                  parse_variants(args.variants),
                                  db if os.path.exists(db) else None)
        jobs += bench
    if args.filter:
        jobs = [j for j in jobs if re.search(args.filter, j[0])]
        kept = {j[0] + ".bundle" for j in jobs}
        for case in table:
            case["bundles"] = {v: b for v, b in case["bundles"].items()
                               if b in kept}
            case["variants"] = [v for v in case["variants"]
                                if v in case["bundles"]]
        table = [c for c in table if c["bundles"]]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(compile_one, jobs))
    if args.pr_changed_only:
        plain, same = keep_changed(stage, mods)
        print(f"--pr-changed-only: {plain} plain and {same} unchanged "
              f"switch bundles left out, {len(os.listdir(os.path.join(stage, 'pr')))} "
              "kept")
    if args.pr_wgmma_only:
        pr = os.path.join(stage, "pr")
        for n in os.listdir(pr):
            if not holds_wgmma(os.path.join(pr, n)):
                os.remove(os.path.join(pr, n))
        print(f"--pr-wgmma-only: {len(os.listdir(pr))} PR bundles hold "
              "wgmma (the others left out)")
    with open(os.path.join(stage, "bench", "cases.json"), "w") as f:
        json.dump(table, f, indent=1)
    ptxas = args.ptxas or shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    regs = {}
    if table and os.path.exists(ptxas):
        names = [b for c in table for b in c["bundles"].values()
                 if os.path.exists(os.path.join(stage, "bench", b))]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
            rows = ex.map(lambda b: ptxas_one(
                ptxas, os.path.join(stage, "bench", b)), names)
            regs = dict(zip(names, rows))
    elif table:
        print(f"note: no ptxas at {ptxas}: ptxas.json stays empty")
    with open(os.path.join(carry, "ptxas.json"), "w") as f:
        json.dump(regs, f, indent=1)
    with open(os.path.join(carry, "manifest.tsv"), "w") as f:
        for name, status, secs, cmd in results:
            f.write(f"{name}\t{status}\t{secs:.2f}\t{cmd}\n")
    with tarfile.open(os.path.join(carry, "bundles.tar.gz"), "w:gz") as t:
        t.add(stage, arcname="bundles")
    shutil.rmtree(stage)
    copy_runner_sources(carry)
    shutil.copy(os.path.join(build, "bin", "rock-run-gpu"), carry)
    for f in ("device-run.sh", "carry-setup.sh", "attention_bench.py",
              "profile_case.py", "numerics-run.sh"):
        shutil.copy(os.path.join(BENCH, f), carry)
    if args.accuracy:
        subprocess.run([sys.executable, os.path.join(ROOT, "bench",
                                                     "accuracy.py"),
                        "prepare", os.path.join(carry, "accuracy"),
                        "--build", build], check=True)
    with open(os.path.join(carry, "read_probe.ptx"), "w") as f:
        f.write(read_probe_ptx(carry))
    ok = sum(r[1] == "ok" for r in results)
    total = sum(os.path.getsize(os.path.join(dp, fn))
                for dp, _, fns in os.walk(carry) for fn in fns)
    print(f"{ok} of {len(results)} bundles compiled; {carry}: "
          f"{total / 2**20:.1f} MiB")
    for name, status, _, _ in results:
        if status != "ok":
            print(f"  {name}: {status}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--carry", default=os.path.join(ROOT, ".gpu-carry"))
    p.add_argument("--no-bench", action="store_true")
    p.add_argument("--no-pr", action="store_true",
                   help="no PR bundles (benchmark cases only)")
    p.add_argument("--suites", default="decode",
                   help="benchmark suites, comma-separated: "
                   + ",".join(bench_cases.SUITES))
    p.add_argument("--ptxas", help="ptxas for the register table "
                   "(default: on PATH, else /usr/local/cuda/bin/ptxas)")
    p.add_argument("--filter")
    p.add_argument("--arch", default=bench_cases.ARCH,
                   help="NVIDIA target of every bundle (default %(default)s)")
    p.add_argument("--pr-mods", default="base",
                   help="compile every PR bundle once per modifier chain "
                   "(comma-separated; bench/gpu/cases.py MODS joined by "
                   "dashes, e.g. base,pp,sw128,pp-sw128; base: none), named "
                   "NAME__CHAIN (default %(default)s)")
    p.add_argument("--pr-wgmma-only", action="store_true",
                   help="keep only the PR bundles with a warpgroup-MMA kernel")
    p.add_argument("--pr-changed-only", action="store_true",
                   help="keep only the NAME__CHAIN PR bundles whose kernels "
                   "differ from the plain NAME's (the plain ones are "
                   "compiled to compare, then left out)")
    p.add_argument("--configs", default="Pr*.toml",
                   help="e2e-configs files of the PR bundles (comma-separated "
                   "globs, default %(default)s)")
    p.add_argument("--level", default="pr",
                   help="their levels (comma-separated, default %(default)s)")
    p.add_argument("--variants", action="append", metavar="SUITE=V1,V2",
                   help="the variants of a suite's cases (e.g. "
                   "prefill=dense,dense-pp,dense-sw128); repeatable")
    p.add_argument("--perf-db", help="the perf DB of the `+tuned` bench "
                   "bundles (default: build/share/rock/perf-db.tsv, the one "
                   "shipped)")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--random-data", action="append", metavar="FLAGS",
                   help="another set of PR bundles with these input flags")
    p.add_argument("--mutations", action="store_true",
                   help="the mutation test's bundles (bundles/mut/)")
    p.add_argument("--accuracy", action="store_true",
                   help="bench/accuracy.py's GPU cases (DIR/accuracy/)")
    args = ap.parse_args()
    return prepare(args)


if __name__ == "__main__":
    sys.exit(main())
