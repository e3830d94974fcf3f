#!/bin/bash
# One device call that measures switches against the defaults, from a carry
# of scripts/gpu-roundtrip.py prepare (the switch PR bundles through
# --pr-mods ... --pr-changed-only, bench variants with modifiers) with this
# file and compare_variants.py copied in:
#   1. correctness: every carried PR bundle through rock-run-gpu (at most
#      PR_SECONDS in all, 30 s a bundle, 12 at a time): one summary line,
#      then each bundle that did not pass `[1 1 1]` with exit 0;
#   2. timing: attention_bench.py over SUITES (at most BENCH_SECONDS; rows
#      are printed as they finish, so a run cut short keeps its rows);
#   3. compare_variants.py: per case, each variant's µs, % of 4.8 TB/s and
#      ratio to its base variant, cuDNN and the read probe.
# Results in $OUT: pr.tsv, pr-failures.txt, bench.log, bench.json (a run
# cut short: bench-partial.json from the log), compare.txt.
# Usage: OUT=DIR bash CARRY/variants-run.sh [SUITES]   (default mtd,decode,gqa)
set -u
SUITES=${1:-mtd,decode,gqa}
PR_SECONDS=${PR_SECONDS:-40}
BENCH_SECONDS=${BENCH_SECONDS:-110}
. "$(dirname "$0")/carry-setup.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader

start=$(date +%s)
run_bundles 30 "$PR_SECONDS" 12
total=$(ls "$W"/bundles/pr/*.bundle 2>/dev/null | wc -l)
echo "PR bundles: $PR_PASS of $total pass ([1 1 1], exit 0; $PR_TOTAL ran) in $(( $(date +%s) - start )) s"
awk -F'\t' '!($2 == 0 && $3 == "[1 1 1]")' "$OUT/pr.tsv" | head -40 | tee "$OUT/pr-failures.txt"

start=$(date +%s)
PYTHONUNBUFFERED=1 timeout "$BENCH_SECONDS" python3 "$C/attention_bench.py" \
  --suites "$SUITES" --bundles "$W/bundles/bench" --probe "$C/read_probe.ptx" \
  --ptxas "$C/ptxas.json" --json "$OUT/bench.json" > "$OUT/bench.log" 2>&1
rc=$?
echo "bench: exit $rc in $(( $(date +%s) - start )) s ($(grep -c '^{' "$OUT/bench.log") rows)"
grep -v '^{' "$OUT/bench.log" | grep -iE "error|Traceback" | head -5
src="$OUT/bench.json"
[ -s "$src" ] || src="$OUT/bench.log"
python3 "$C/compare_variants.py" "$src" | tee "$OUT/compare.txt"
