#!/bin/bash
# One device call: PR bundles of the new carry, then the bench suites of
# each carry in turn (base, then new; AGAIN=1: base once more), per suite
# group (each through ab-one.sh). Usage: OUT=DIR bash bench/gpu/ab-go.sh NEW BASE [GROUPS] (or from a folder holding ab-go.sh, ab-one.sh and ab_summary.py)
#   GROUPS: suite lists separated by ':' (default prefill,layout,shapes:decode,gqa)
set -u
S=$(cd "$(dirname "$0")" && pwd)
R=${OUT:?}; NEW=$(cd "$1" && pwd); BASE=$(cd "$2" && pwd)
SGROUPS=${3:-prefill,layout,shapes:decode,gqa}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
t0=$(date +%s)
# carry-setup.sh finds its carry from $0: run each step as a script there.
PR='. "$(dirname "$0")/carry-setup.sh"; run_bundles 30 "$PR_SECONDS" 12
  echo "PR bundles: $PR_PASS of $(ls $W/bundles/pr/*.bundle | wc -l) pass ([1 1 1], exit 0; $PR_TOTAL ran)"
  awk -F"\t" "!(\$2 == 0 && \$3 == \"[1 1 1]\")" "$OUT/pr.tsv" | head -20'
mkdir -p "$R/pr"
OUT=$R/pr PR_SECONDS=${PR_SECONDS:-100} bash -c "$PR" "$NEW/step"
echo "($(( $(date +%s) - t0 )) s)"
i=0
for grp in ${SGROUPS//:/ }; do
  for c in $BASE $NEW ${AGAIN:+$BASE}; do
    i=$((i + 1)); d=$R/$i-$(basename $c | sed s/^build-//)-${grp//,/_}; mkdir -p $d
    t=$(date +%s)
    r=$(OUT=$d bash "$S/ab-one.sh" "$c" "$grp" "${BENCH_SECONDS:-150}" | head -1)
    echo "== $(basename $c) $grp: $r in $(( $(date +%s) - t )) s"
  done
done
cd "$R" && tar czf results.tgz */bench.json */bench.log pr/pr.tsv 2>/dev/null
echo "total $(( $(date +%s) - t0 )) s"
python3 "$S/ab_summary.py" "$R"
