#!/bin/bash
# Pipe utilisation of bench kernels by Nsight Compute, on the GPU machine:
#   OUT=DIR bash bench/gpu/profile-pipes.sh CARRY SUITE:NAME:VARIANT ...
# (CARRY: a folder of scripts/gpu-roundtrip.py prepare; e.g.
# shapes:mha-B2-S4k-d64:dense prefill:S8192-c0:dense). One launch of each
# kernel under ncu --clock-control none, with every sm__inst_executed_pipe_*
# / sm__pipe_*_cycles_active / sm__issue_active counter this ncu offers
# (% of peak sustained, active cycles) and the warps stalled per issued
# instruction by reason, into DIR/ncu-NAME-VARIANT.txt; the nonzero pipe
# lines and the stall reasons above 0.05 are printed.
set -u
C=$(cd "$1" && pwd); shift
R=${OUT:?}; W=/tmp/rock-pipes; rm -rf $W; mkdir -p $W "$R"
tar xzf "$C/bundles.tar.gz" -C $W
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ncu --query-metrics > "$R/metrics.txt" 2>&1
MET=$( (grep -oE "^(sm__inst_executed_pipe_[a-z_]+|sm__pipe_[a-z_]+_cycles_active|sm__issue_active)\b" \
  "$R/metrics.txt" | sort -u | sed 's/$/.avg.pct_of_peak_sustained_active/'
  grep -oE "^smsp__average_warps_issue_stalled_[a-z_]+_per_issue_active\b" "$R/metrics.txt" |
    sort -u | sed 's/$/.ratio/') | paste -sd,)
for c in "$@"; do
  IFS=: read -r suite name variant <<< "$c"
  f="$R/ncu-$name-$variant.txt"
  timeout 150 ncu --clock-control none -k regex:rock -c 1 --section SpeedOfLight \
    --metrics "$MET" python3 "$C/profile_case.py" --bundles $W/bundles/bench \
    --suite "$suite" "$name" "$variant" > "$f" 2>&1
  echo "== $suite $name $variant: rc $?"
  grep -E "pipe_(xu|fma|alu|tensor|shared)_cycles|pipe_xu\.|issue_active|Duration" "$f" |
    grep -v " 0$"
  grep -E "issue_stalled" "$f" | awk '$NF > 0.05'
done
