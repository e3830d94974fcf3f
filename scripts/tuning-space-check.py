#!/usr/bin/env python3
"""Checks that every perf_config of a tuning space compiles and verifies.

    tuning-space-check.py [--build build] [--space quick|full] [--every N]
                          [-j N] -- ROCK-GEN-PROBLEM-FLAGS...

Lists the space with `rock-gen FLAGS --emit-tuning-space=SPACE` (every N-th
config with --every) and, per config, on the target of the flags' --arch:
  - cpu: `rock-gen FLAGS -perf_config C -pv | rock-run` must print
    [1 1 1] (the f64 reference);
  - NVIDIA (sm_*): `rock-run --compile-only` must write a bundle, with
    `--cubin` (ptxas) when the CUDA toolkit is installed;
  - AMD (gfx*): `rock-opt --pass-pipeline=builtin.module(rock-gpu-pipeline)`
    must reach the code objects (an hsaco needs the ROCm toolkit; without
    it, the pipeline up to ROCDL: `--amd-llvm-only`).
Prints one line per config ("ok C" / "FAIL C: reason") and the summary
"N of M configs ...". Exit status 1 when one failed. The quick suite runs
a sample per target (test/Tools/tuning-space-*.mlir); the nightly suite
the whole full space of several problems.
"""
import argparse
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def run(cmd):
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd],
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(bin_dir, flags, arch, cfg, amd_llvm_only):
    q = " ".join(map(shlex.quote, flags))
    gen = (f"{bin_dir}/rock-gen {q} -perf_config {shlex.quote(cfg)} "
           f"--perf-db none")
    if arch.startswith("sm_"):
        cubin = "--cubin" if os.access("/usr/local/cuda/bin/ptxas",
                                       os.X_OK) else ""
        rc, out, err = run(f"{gen} | {bin_dir}/rock-run --compile-only "
                           f"{cubin} -o /dev/null")
        return rc == 0, (err.strip().splitlines() or ["?"])[-1]
    if arch.startswith("gfx") or "amdgcn" in arch:
        pipe = ("rock-attention-to-gridwise,rock-combine-to-gpu,"
                "rock-gridwise-attention-to-gpu" if amd_llvm_only
                else "rock-gpu-pipeline")
        rc, out, err = run(f"{gen} | {bin_dir}/rock-opt "
                           f"--pass-pipeline='builtin.module({pipe})' "
                           f"> /dev/null")
        return rc == 0, (err.strip().splitlines() or ["?"])[-1]
    rc, out, err = run(f"{gen} -pv | {bin_dir}/rock-run")
    verdict = [x for x in out.splitlines() if x.startswith("[")]
    ok = rc == 0 and verdict[-1:] == ["[1 1 1]"]
    return ok, (verdict[-1] if verdict else
                (err.strip().splitlines() or ["no verdict"])[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--space", choices=("quick", "full"), default="full")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--amd-llvm-only", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("flags", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    flags = a.flags[1:] if a.flags[:1] == ["--"] else a.flags
    bin_dir = os.path.join(os.path.abspath(a.build), "bin")
    arch = flags[flags.index("--arch") + 1] if "--arch" in flags else "cpu"
    q = " ".join(map(shlex.quote, flags))
    rc, out, err = run(f"{bin_dir}/rock-gen {q} "
                       f"--emit-tuning-space={a.space}")
    if rc:
        print(f"rock-gen --emit-tuning-space failed: {err.strip()}")
        return 1
    space = [x for x in out.splitlines() if x and not x.startswith("#")]
    picked = space[::max(1, a.every)]
    with ThreadPoolExecutor(a.jobs) as ex:
        res = list(ex.map(lambda c: check(bin_dir, flags, arch, c,
                                          a.amd_llvm_only), picked))
    bad = 0
    for cfg, (ok, why) in zip(picked, res):
        print(f"ok {cfg}" if ok else f"FAIL {cfg}: {why}")
        bad += not ok
    what = ("compiled" if arch != "cpu" else "compiled and verified")
    print(f"{len(picked) - bad} of {len(picked)} configs {what} "
          f"({len(space)} in the {a.space} space, {arch})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
