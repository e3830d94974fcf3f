#!/usr/bin/env python3
"""GPU round trip: compile bundles here, run and verify them on a GPU machine.

    gpu-roundtrip.py prepare [--build build] [--carry DIR] [--no-bench]
                             [--filter REGEX] [-j N]

`prepare` (on a machine with MLIR, no GPU needed) compiles, for every PR
combination of e2e-configs/Pr*.toml (every dtype, paged and split-KV
included), `rock-gen ... --arch sm_90 | rock-run --compile-only` into a
bundle, and the decode benchmark cases (bench/gpu: bf16, Hq 32 / Hkv 8,
d 128, q 1, B x L over {1, 8, 32} x {8k, 32k, 128k}; contiguous KV and a
shuffled page table of 16 and 64 tokens). It writes into DIR (default
./.gpu-carry): bundles.tar.gz, manifest.tsv (name, status, command),
rock-run-gpu (this build's), the runner's C sources (to rebuild there with
the machine's cc if the carried binary does not start), the read probe's PTX
and the device scripts. Then, on the GPU machine, from the directory that
holds DIR:

    bash DIR/device-run.sh

runs every PR bundle with rock-run-gpu (the same `[r a d]` verdicts and exit
codes as rock-run), then the decode benchmark, writing the results under
$OUT (or /tmp/rock-gpu-out). bench/RESULTS-gpu.md records one such run.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "e2e"))
import toml_expand  # noqa: E402

ARCH = "sm_90"
BENCH_B = (1, 8, 32)
BENCH_L = (8192, 32768, 131072)
BENCH_PAGES = (16, 64)  # tokens per page
HQ, HKV, D = 32, 8, 128
TAIL = ("nvvm-attach-target{chip=sm_90 O=3},gpu.module(convert-scf-to-cf,"
        "convert-vector-to-llvm,convert-gpu-to-nvvm{use-bare-ptr-memref-"
        "call-conv=1}),reconcile-unrealized-casts,"
        "gpu-module-to-binary{format=isa}")
# runtime/ files rock-run-gpu is built from (no MLIR).
RUNNER_SRC = ("buffer", "bundle", "combine", "cuda", "gpu_run", "half",
              "harness_types", "init", "metrics", "npy", "paged", "problem",
              "reference", "rng", "run_options", "session", "timer")
# Header-only rock-c headers those files include.
RUNNER_C_HEADERS = ("Sizes.h",)


def pr_jobs(build, bundles):
    """(name, shell command) for every PR combination, compiling a bundle."""
    subs = {"arch": ARCH, "random_data": "", "rock_gen_flags": "",
            "rocmlir_gen_flags": "", "pv": "-pv"}
    tools = {"rock-gen": os.path.join(build, "bin", "rock-gen"),
             "rock-run": os.path.join(build, "bin", "rock-run")}
    jobs = []
    configs = os.path.join(ROOT, "e2e-configs")
    for toml in sorted(os.listdir(configs)):
        if not (toml.startswith("Pr") and toml.endswith(".toml")):
            continue
        spec = toml_expand.load(os.path.join(configs, toml))
        for st in spec.suite_tests():
            if st.level != "pr":
                continue
            for c in st.combos:
                if c.excluded:
                    continue
                name = f"{toml[:-5]}__{st.suite}__{st.t}__{c.o}"
                cmd = toml_expand.exec_command(spec, c, subs, tools)
                out = os.path.join(bundles, "pr", name + ".bundle")
                jobs.append((name, f"{cmd} --compile-only -o "
                             f"{shlex.quote(out)}"))
    return jobs


def bench_jobs(build, bundles):
    gen = os.path.join(build, "bin", "rock-gen")
    run = os.path.join(build, "bin", "rock-run")
    jobs = []
    for b in BENCH_B:
        for L in BENCH_L:
            base = (f"{gen} --operation attention -t bf16 -g {b} "
                    f"-num_heads_q {HQ} -num_heads_kv {HKV} -seq_len_q 1 "
                    f"-seq_len_k {L} -head_dim_qk {D} -head_dim_v {D} "
                    f"--arch {ARCH} -pv --verifier=none")
            variants = [("dense", "--transK")]
            for tok in BENCH_PAGES:
                variants.append((f"p{tok}", f"--paged-attention --num-pages "
                                 f"{HKV * L // tok} --page-size {tok * D}"))
            for v, flags in variants:
                name = f"decode-{v}-B{b}-L{L}"
                out = os.path.join(bundles, "bench", name + ".bundle")
                jobs.append((name, f"{base} {flags} | {run} --compile-only "
                             f"-o {shlex.quote(out)}"))
    return jobs


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


def prepare(args):
    carry = os.path.abspath(args.carry)
    build = os.path.abspath(args.build)
    stage = os.path.join(carry, "stage")
    shutil.rmtree(carry, ignore_errors=True)
    for d in ("pr", "bench"):
        os.makedirs(os.path.join(stage, d))
    jobs = pr_jobs(build, stage)
    if not args.no_bench:
        jobs += bench_jobs(build, stage)
    if args.filter:
        jobs = [j for j in jobs if re.search(args.filter, j[0])]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(compile_one, jobs))
    with open(os.path.join(carry, "manifest.tsv"), "w") as f:
        for name, status, secs, cmd in results:
            f.write(f"{name}\t{status}\t{secs:.2f}\t{cmd}\n")
    with tarfile.open(os.path.join(carry, "bundles.tar.gz"), "w:gz") as t:
        t.add(stage, arcname="bundles")
    shutil.rmtree(stage)
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
    shutil.copy(os.path.join(build, "bin", "rock-run-gpu"), carry)
    for f in ("device-run.sh", "decode_bench.py"):
        shutil.copy(os.path.join(ROOT, "bench", "gpu", f), carry)
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
    p.add_argument("--filter")
    p.add_argument("-j", "--jobs", type=int, default=2)
    args = ap.parse_args()
    return prepare(args)


if __name__ == "__main__":
    sys.exit(main())
