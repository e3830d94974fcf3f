# Sourced by the GPU-machine scripts of a carry directory (device-run.sh,
# numerics-run.sh): C = the carry, OUT = the results folder (default
# /tmp/rock-gpu-out, created), W = a fresh work folder with the bundles
# unpacked, RUNNER = the carried rock-run-gpu, or one built with cc from
# the carried sources when it does not start there (exit 3 if that fails).
C=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/rock-gpu-out}
mkdir -p "$OUT"
W=/tmp/rock-gpu-work
rm -rf "$W" && mkdir -p "$W" && tar xzf "$C/bundles.tar.gz" -C "$W"
RUNNER="$C/rock-run-gpu"
if ! "$RUNNER" --help >/dev/null 2>&1; then
  echo "carried rock-run-gpu does not start here; building it with cc"
  cc -O2 -std=c11 -I"$C/src/runtime" -I"$C/src/include" \
    "$C/src/tools/rock_run_gpu.c" "$C"/src/runtime/*.c -lm -ldl \
    -o "$W/rock-run-gpu" || exit 3
  RUNNER="$W/rock-run-gpu"
fi

# run_bundles PER_S TOTAL_S JOBS: every $W/bundles/pr/*.bundle through the
# runner, JOBS at a time, each within PER_S seconds, all within
# TOTAL_S (0: no limit; what has not finished then is missing), into
# $OUT/pr.tsv sorted: bundle, exit status, verdict line, last other line.
# PR_PASS / PR_TOTAL: the bundles with exit 0 and [1 1 1], and the rows.
run_bundles() {
  local cap=()
  [ "$2" -gt 0 ] && cap=(timeout "$2")
  ls "$W"/bundles/pr/*.bundle 2>/dev/null |
    "${cap[@]}" xargs -r -P "$3" -I{} sh -c '
      b={}; n=$(basename "$b" .bundle)
      timeout "$1" "$0" "$b" > "$b.out" 2>&1; rc=$?
      v=$(grep "^\[" "$b.out" | tail -1)
      echo "$n	$rc	${v:-none}	$(grep -v "^\[" "$b.out" | tail -1)"
    ' "$RUNNER" "$1" | sort > "$OUT/pr.tsv"
  PR_TOTAL=$(wc -l < "$OUT/pr.tsv")
  PR_PASS=$(awk -F'\t' '$2 == 0 && $3 == "[1 1 1]"' "$OUT/pr.tsv" | wc -l)
}
