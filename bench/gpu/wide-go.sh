#!/bin/bash
# The GPU-machine half of bench/gpu/wide-prepare.sh (copied as CARRY/go.sh):
# correctness first (every carried PR and wgmma-extra bundle through
# rock-run-gpu, f64 reference), then the shapes suite's d 64 / d 256 rows
# with cuDNN and flash (attention_bench.py). Results under $OUT (pr.tsv,
# pr-failures.txt, accel.json, accel.log). Expected about 100 s.
set -u
C=$(cd "$(dirname "$0")" && pwd)
export OUT=${OUT:-/tmp/rock-gpu-out}
t0=$(date +%s)
echo "== correctness"
timeout 50 bash "$C/device-run.sh" pr
echo "rc $? after $(( $(date +%s) - t0 )) s"
echo "== timing (shapes: d 64, d 256)"
timeout 95 bash "$C/device-run.sh" accel | grep -v '^name, driver'
echo "rc $? after $(( $(date +%s) - t0 )) s"
