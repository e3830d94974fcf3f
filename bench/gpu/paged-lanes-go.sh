#!/bin/bash
# Paged K / V by TMA: the page-address path over the producer's first warp
# (rock.gpu_wgmma_tma_paged_lanes = 1, bench modifier pl1; = 2, a tile
# ahead too, pl2; docs/gpu-accel.md "Paged K / V by TMA"). The carry:
#   python3 scripts/gpu-roundtrip.py prepare --build build --carry CARRY \
#     --suites prefill --variants prefill=dense,p16,p64,p16-pl1,p16-pl2,p64-pl1,p64-pl2 \
#     --filter '^(?!prefill-)|^prefill-.*-S(4096|8192)-c[01]$' \
#     --pr-mods base,pl1,pl2 --pr-wgmma-only --pr-changed-only \
#     --configs 'Pr*.toml,NightlyGpuPagedTma.toml' --level pr,nightly
#   cp bench/gpu/paged-lanes-go.sh CARRY/go.sh
# (--pr-changed-only leaves the plain bundles out: build-ptma2 adds back the
# 34 plain ones, the 27 wgmma PR and 7 NightlyGpuPagedTma bundles, compiled
# from the manifest's commands into bundles/pr/ of bundles.tar.gz: 46 in all.)
# One device call, about 75 s (the timing killed at 115 s from the start):
#   OUT=$OUT bash CARRY/go.sh
# 1. correctness (~20 s): the wgmma PR and NightlyGpuPagedTma bundles plain
#    (paged TMA, the default) and __pl1 / __pl2 where the switch changes the
#    kernel, f64 reference on the host, each killed after 25 s (a hung
#    mbarrier wait shows as exit 137), the first 2 failures rerun with -v;
# 2. timing: bench prefill B 2 Hq 64 Hkv 8 d 128, S 4k and 8k, causal and
#    not: dense / p16 / p64 (paged TMA) / p16-pl1 / p16-pl2 / p64-pl1 /
#    p64-pl2, cuDNN, flash, in one process (a switch whose bundles failed in
#    step 1 is dropped from the timing).
set -u
. "$(dirname "$0")/carry-setup.sh"
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "== 1. correctness: $(ls "$W"/bundles/pr/*.bundle | wc -l) bundles"
run_bundles 25 0 12
echo "PR bundles: $PR_PASS of $PR_TOTAL pass ([1 1 1], exit 0) in $(( $(date +%s) - t0 )) s"
for m in pl1 pl2; do
  echo "-- __$m: $(awk -F'\t' -v m="__$m" 'index($1, m) && $2 == 0 && $3 == "[1 1 1]"' "$OUT/pr.tsv" | wc -l) of $(awk -F'\t' -v m="__$m" 'index($1, m)' "$OUT/pr.tsv" | wc -l) pass"
done
echo "-- the paged-TMA bundles:"
grep "^NightlyGpuPagedTma" "$OUT/pr.tsv" | cut -f1-3
echo "-- failures (bundle, exit, verdict, last line):"
awk -F'\t' '!($2 == 0 && $3 == "[1 1 1]")' "$OUT/pr.tsv" | head -20
: > "$OUT/pr-failures.txt"
awk -F'\t' '!($2 == 0 && $3 == "[1 1 1]") {print $1}' "$OUT/pr.tsv" | head -2 |
  while read -r n; do
    echo "== $n" >> "$OUT/pr-failures.txt"
    timeout -s KILL 10 "$RUNNER" "$W/bundles/pr/$n.bundle" -v >> "$OUT/pr-failures.txt" 2>&1
    echo "exit $?" >> "$OUT/pr-failures.txt"
  done
[ -s "$OUT/pr-failures.txt" ] && tail -30 "$OUT/pr-failures.txt"
drop=$(awk -F'\t' '!($2 == 0 && $3 == "[1 1 1]") {n = split($1, p, "__"); if (p[n] ~ /^pl[12]$/) print p[n]}' "$OUT/pr.tsv" | sort -u | tr '\n' ' ')
if [ -n "$drop" ]; then
  echo "-- failed switches, left out of the timing: $drop"
  python3 - "$W/bundles/bench/cases.json" $drop <<'PY'
import json, sys
p, drop = sys.argv[1], sys.argv[2:]
cases = json.load(open(p))
bad = lambda v: any(v.endswith("-" + d) for d in drop)
for c in cases:
    c["variants"] = [v for v in c["variants"] if not bad(v)]
    c["bundles"] = {v: b for v, b in c["bundles"].items() if not bad(v)}
json.dump(cases, open(p, "w"))
PY
fi
left=$(( 115 - ($(date +%s) - t0) )); [ "$left" -lt 40 ] && left=40
echo "== 2. timing (prefill S 4k, 8k), $(( $(date +%s) - t0 )) s so far, killed after $left s"
PYTHONUNBUFFERED=1 timeout -s KILL "$left" python3 "$C/attention_bench.py" --suites prefill \
  --bundles "$W/bundles/bench" --ptxas "$C/ptxas.json" \
  --json "$OUT/accel.json" 2>&1 | tee "$OUT/accel.log" | grep -v '^{'
echo "== done in $(( $(date +%s) - t0 )) s (pr.tsv, pr-failures.txt, accel.json, accel.log in \$OUT)"
