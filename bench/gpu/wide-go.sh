#!/bin/bash
# The GPU-machine half of bench/gpu/wide-prepare.sh (copied as CARRY/go.sh):
#   1. correctness: every carried PR and wgmma-extra bundle through
#      rock-run-gpu (f64 reference, [r a d] verdicts), 25 s each and 60 s
#      in all at most (what has not finished then is missing from pr.tsv);
#   2. timing: the shapes suite's d 64 / d 256 rows, every variant, with
#      cuDNN and flash in the same process (attention_bench.py); a variant
#      whose switch failed a bundle in step 1 is left out of the timing.
# Results under $OUT: pr.tsv, pr-failures.txt, accel.json, accel.log.
# Usage: OUT=$OUT bash CARRY/go.sh   (expected 60-100 s on the H200, at most
# about 150 s: 60 + 12 + 75 s of timeouts)
set -u
. "$(dirname "$0")/carry-setup.sh"
# The switch chains counted and the suites timed: the carry's go.env
# (written by the prepare script) or run 11's.
SWITCHES="wide k192 cw3 wide-tma0 wide-pp k192-pp"
SUITES=shapes
TIMING_S=75
[ -f "$C/go.env" ] && . "$C/go.env"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
t0=$(date +%s)
echo "== correctness"
run_bundles 25 60 12
echo "bundles: $PR_PASS of $PR_TOTAL pass ([1 1 1], exit 0) in $(( $(date +%s) - t0 )) s"
awk -F'\t' '!($2 == 0 && $3 == "[1 1 1]")' "$OUT/pr.tsv" | head -40
for s in $SWITCHES; do
  printf '  %-10s %s of %s pass\n' "$s" \
    "$(grep -- "__$s	" "$OUT/pr.tsv" | awk -F'\t' '$2 == 0 && $3 == "[1 1 1]"' | wc -l)" \
    "$(grep -c -- "__$s	" "$OUT/pr.tsv")"
done
: > "$OUT/pr-failures.txt"
awk -F'\t' '!($2 == 0 && $3 == "[1 1 1]") {print $1}' "$OUT/pr.tsv" | head -2 |
  while read -r n; do
    echo "== $n" >> "$OUT/pr-failures.txt"
    timeout 6 "$RUNNER" "$W/bundles/pr/$n.bundle" -v >> "$OUT/pr-failures.txt" 2>&1
  done
# Switches with a failing bundle stay out of the timing.
bad=$(awk -F'\t' '!($2 == 0 && $3 == "[1 1 1]") && $1 ~ /__/ {
  sub(/.*__/, "", $1); print $1}' "$OUT/pr.tsv" | sort -u | tr '\n' ' ')
python3 - "$W/bundles/bench/cases.json" $bad <<'PY'
import json, sys
path, bad = sys.argv[1], set(sys.argv[2:])
bad |= {m for b in list(bad) for m in b.split("-")}  # wide-tma0: wide, tma0
bad.discard("tma0")
cases = json.load(open(path))
for c in cases:
    drop = [v for v in c["variants"] if set(v.split("-")[1:]) & bad]
    for v in drop:
        c["variants"].remove(v)
        c["bundles"].pop(v, None)
    if drop:
        print(f"left out of the timing ({' '.join(sorted(bad))} failed): "
              f"{c['name']}: {' '.join(drop)}")
json.dump(cases, open(path, "w"), indent=1)
PY
echo "== timing ($SUITES) after $(( $(date +%s) - t0 )) s"
PYTHONUNBUFFERED=1 timeout "$TIMING_S" python3 "$C/attention_bench.py" --suites "$SUITES" \
  --bundles "$W/bundles/bench" --ptxas "$C/ptxas.json" \
  --json "$OUT/accel.json" 2>&1 | tee "$OUT/accel.log" | grep -v '^{'
echo "rc ${PIPESTATUS[0]} after $(( $(date +%s) - t0 )) s"
