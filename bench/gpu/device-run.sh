#!/bin/bash
# The GPU-machine half of scripts/gpu-roundtrip.py (which copies this file
# into the carry directory): runs every PR bundle with rock-run-gpu, then
# the benchmark suites carried (bench/gpu/cases.py). Results go to $OUT
# (default /tmp/rock-gpu-out): pr.tsv (bundle, exit status, verdict),
# pr-failures.txt (-v output of each failure), bench.json / bench.log
# (the decode suites: decode, gqa, and the layout rows), accel.json /
# accel.log (prefill and multi-token decode, with the bf16 matmul rate and
# ptxas -v per kernel).
# Usage: bash CARRY/device-run.sh [pr|bench|accel|all]
#   pr: PR bundles; bench: the decode suites carried (decode, gqa, layout);
#   accel: prefill + mtd suites; all (default): PR bundles, the runner's own
#   timing of three decode bundles, and every suite carried.
set -u
WHAT=${1:-all}
. "$(dirname "$0")/carry-setup.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv

if [ "$WHAT" = pr ] || [ "$WHAT" = all ]; then
  start=$(date +%s)
  run_bundles 300 0 12
  end=$(date +%s)
  echo "PR bundles: $PR_PASS of $PR_TOTAL pass ([1 1 1], exit 0) in $((end - start)) s"
  : > "$OUT/pr-failures.txt"
  awk -F'\t' '!($2 == 0 && $3 == "[1 1 1]") {print $1}' "$OUT/pr.tsv" |
    head -40 | while read -r n; do
      echo "== $n" >> "$OUT/pr-failures.txt"
      timeout 300 "$RUNNER" "$W/bundles/pr/$n.bundle" -v >> "$OUT/pr-failures.txt" 2>&1
      echo "exit $?" >> "$OUT/pr-failures.txt"
    done
  awk -F'\t' '!($2 == 0 && $3 == "[1 1 1]")' "$OUT/pr.tsv" | head -40
fi

has_suite() {
  grep -q "\"suite\": \"$1\"" "$W/bundles/bench/cases.json" 2>/dev/null
}

if [ "$WHAT" = all ] && has_suite decode; then
  # The runner's own device timing on three decode cases (verification off;
  # B1-L8192 rotates 8 input copies), and one verified run with dumps.
  for n in decode-p16-B1-L8192 decode-p16-B8-L32768 decode-dense-B1-L131072; do
    [ -f "$W/bundles/bench/$n.bundle" ] &&
      "$RUNNER" "$W/bundles/bench/$n.bundle" --time 2>&1 | sed "s/^/$n: /"
  done
  d=$(ls "$W"/bundles/pr/*paged*.bundle 2>/dev/null | head -1)
  if [ -n "$d" ]; then
    "$RUNNER" "$d" --dump-dir "$W/dump" -v 2>&1 | tail -3
    (cd "$W/dump" && ls && tar czf "$OUT/dump.tar.gz" .)
  fi
fi
suites=""
for s in decode gqa layout; do
  has_suite $s && suites="$suites${suites:+,}$s"
done
if [ -n "$suites" ] && { [ "$WHAT" = bench ] || [ "$WHAT" = all ]; }; then
  PYTHONUNBUFFERED=1 python3 "$C/attention_bench.py" --suites "$suites" \
    --bundles "$W/bundles/bench" --probe "$C/read_probe.ptx" \
    --json "$OUT/bench.json" 2>&1 | tee "$OUT/bench.log" | grep -v '^{' 
fi

if [ "$WHAT" = accel ] || { [ "$WHAT" = all ] && has_suite prefill; }; then
  PYTHONUNBUFFERED=1 python3 "$C/attention_bench.py" --suites prefill,shapes,mtd \
    --bundles "$W/bundles/bench" --ptxas "$C/ptxas.json" \
    --json "$OUT/accel.json" 2>&1 | tee "$OUT/accel.log" | grep -v '^{'
fi
