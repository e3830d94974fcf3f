#!/bin/bash
# One carry's bench suites: OUT=DIR bash bench/gpu/ab-one.sh CARRY SUITES [SECONDS]
set -u
c=$(cd "$1" && pwd); GRP=$2; T=${3:-80}
OUT=${OUT:?} GRP=$GRP T=$T bash -c '. "$(dirname "$0")/carry-setup.sh"
  PYTHONUNBUFFERED=1 timeout "$T" python3 "$C/attention_bench.py" --suites "$GRP" \
    --bundles "$W/bundles/bench" --probe "$C/read_probe.ptx" --ptxas "$C/ptxas.json" --json "$OUT/bench.json" > "$OUT/bench.log" 2>&1
  echo "exit $?"; grep -v "^{" "$OUT/bench.log" | tail -25' "$c/step"
