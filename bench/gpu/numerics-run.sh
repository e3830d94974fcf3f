#!/bin/bash
# The GPU-machine half of `scripts/gpu-roundtrip.py prepare --random-data ...
# --mutations --accuracy` (issue 20's checks, docs/semantics.md §8): every
# PR bundle at its inputs (the default pattern, and each --random-data set),
# the planted wrong results of test/Tools/rock-run-mutations.mlir on the
# GPU's verification path (each must fail, the unmutated run pass), and
# bench/accuracy.py's table (rock-run-gpu beside torch's SDPA backends).
# Results under $OUT (default /tmp/rock-gpu-out): pr.tsv, pr-failures.txt,
# mutations.txt, accuracy-gpu.md, accuracy.log. Prints the tables last.
# Usage: bash CARRY/numerics-run.sh
set -u
. "$(dirname "$0")/carry-setup.sh"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

# PR bundles: exit 0 and [1 1 1], at the defaults of each file.
start=$(date +%s)
run_bundles 120 0 14
end=$(date +%s)
: > "$OUT/pr-failures.txt"
awk -F'\t' '!($2 == 0 && $3 == "[1 1 1]") {print $1}' "$OUT/pr.tsv" |
  head -20 | while read -r n; do
    echo "== $n" >> "$OUT/pr-failures.txt"
    timeout 120 "$RUNNER" "$W/bundles/pr/$n.bundle" -v \
      >> "$OUT/pr-failures.txt" 2>&1
  done

# Mutations: the unmutated bundle passes, each planted error fails.
: > "$OUT/mutations.txt"
for t in f32 f16 bf16 i8; do
  for pair in "$t:none element row-shift scale-ignored" \
              "$t-split:none split-dropped lse"; do
    b="$W/bundles/mut/${pair%%:*}.bundle"
    for m in ${pair#*:}; do
      flag=""; [ "$m" != none ] && flag="--testing-mutate=$m"
      v=$("$RUNNER" "$b" $flag 2>&1 | tail -1)
      echo "${pair%%:*} $m: $v" >> "$OUT/mutations.txt"
    done
  done
done

# Accuracy against the exact answer, beside torch.
PYTHONUNBUFFERED=1 python3 "$C/accuracy/accuracy.py" gpu "$C/accuracy" \
  --runner "$RUNNER" --md "$OUT/accuracy-gpu.md" > "$OUT/accuracy.log" 2>&1

echo "== PR bundles by set (pass = exit 0 and [1 1 1]) in $((end - start)) s"
awk -F'\t' '{set = ($1 ~ /__rand[0-9]+$/) ? substr($1, match($1, /__rand[0-9]+$/) + 2) : "pattern";
  n[set]++; if ($2 == 0 && $3 == "[1 1 1]") p[set]++}
  END {for (s in n) printf "%s: %d of %d pass\n", s, p[s], n[s]}' "$OUT/pr.tsv"
awk -F'\t' '!($2 == 0 && $3 == "[1 1 1]")' "$OUT/pr.tsv" | head -10
echo "== mutations (none must be [1 1 1]; every other line must hold a 0)"
cat "$OUT/mutations.txt"
echo "== accuracy"
tail -30 "$OUT/accuracy.log"
