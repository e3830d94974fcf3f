#!/usr/bin/env python3
"""Runs rocMLIR's e2e TOMLs, unchanged, through rock's TOML lit format.

rock does not ship rocMLIR's files; point this at a directory holding them
(e.g. a checkout's mlir/test/e2e, or a few *.toml copied out of it):

    scripts/run-rocmlir-tomls.py ~/rocMLIR/mlir/test/e2e/PrAttentionF16.toml
    scripts/run-rocmlir-tomls.py ~/rocMLIR/mlir/test/e2e --only 'Attention'

Every named file (or every *.toml of a named directory, filtered by
--only) runs at nightly level, so files without a `level` key run whatever
their name; prefix rocmlir-gen is read as rock-gen and the rocmlir-driver /
mlir-runner pipeline as rock-run (e2e-configs/README.md). Prints one line per
file, "FILE: P/N combinations passed (F failed, X excluded)", then a total;
exits 1 if any combination failed. lit's own output goes to
BUILD/rocmlir-tomls.log.
"""
import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict

SUMMARY = re.compile(r"^(?P<file>[^/\s]+\.toml)/\S+: (?P<p>\d+) passed, "
                     r"(?P<f>\d+) failed, (?P<x>\d+) excluded of (?P<n>\d+) "
                     r"combinations")
EXPAND_ERROR = re.compile(r"^FAIL: \S+ :: e2e/(?P<file>[^/\s]+\.toml)$")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="rocMLIR *.toml files or dirs")
    ap.add_argument("--build", default="build", help="rock build dir")
    ap.add_argument("--only", default="", help="regex on file names")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", default="600",
                    help="seconds per combination (0 = none)")
    ap.add_argument("--random-data", default="",
                    help="value of %%random_data, e.g. '-rand 1'")
    ap.add_argument("--lit", default=os.environ.get(
        "LIT", "/usr/lib/llvm-22/bin/lit"))
    a = ap.parse_args()

    only = re.compile(a.only)
    files = []
    for p in a.paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p)
                            if f.endswith(".toml") and only.search(f))
        elif os.path.isfile(p):
            files.append(p)
        else:
            sys.exit(f"run-rocmlir-tomls: no such file or directory: {p}")
    if not files:
        sys.exit("run-rocmlir-tomls: no *.toml file to run")
    files = [os.path.abspath(f) for f in files]

    cmd = [a.lit, "-a", f"-j{a.jobs}", os.path.join(a.build, "test"),
           "--filter", r"e2e/[^/]+\.toml",
           "--param", "suite=nightly",
           "--param", "e2e_configs=" + os.pathsep.join(files),
           "--param", f"e2e_timeout={a.timeout}",
           "--param", f"random_data={a.random_data}"]
    log = os.path.join(a.build, "rocmlir-tomls.log")
    with open(log, "w") as out:
        subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT)

    per = defaultdict(lambda: [0, 0, 0, 0])  # passed, failed, excluded, all
    broken = set()
    with open(log) as f:
        for line in f:
            m = SUMMARY.match(line.strip())
            if m:
                c = per[m["file"]]
                for i, k in enumerate("pfxn"):
                    c[i] += int(m[k])
            m = EXPAND_ERROR.match(line.strip())
            if m:
                broken.add(m["file"])
    total = [0, 0, 0, 0]
    for path in files:
        name = os.path.basename(path)
        if name in broken:
            print(f"{name}: cannot expand (see {log})")
            total[1] += 1
            continue
        p, fl, x, n = per[name]
        print(f"{name}: {p}/{n - x} combinations passed ({fl} failed, "
              f"{x} excluded)")
        total = [t + v for t, v in zip(total, (p, fl, x, n))]
    print(f"total: {total[0]}/{total[3] - total[2]} combinations passed "
          f"({total[1]} failed, {total[2]} excluded); lit output in {log}")
    return 1 if total[1] else 0


if __name__ == "__main__":
    sys.exit(main())
