#!/bin/bash
# The extra verified bundles of the sm_90a prefill schedule
# (bench/RESULTS-gpu-wgmma.md): every line of wgmma-extra.tsv (name, rock-gen
# flags) becomes OUTDIR/bundles/pr/<name>_<ARCH>.bundle, verified on the GPU
# by rock-run-gpu against the f64 reference with rock-gen's default
# thresholds (-pv -rand_type float).
# Usage: bench/gpu/wgmma-extra.sh BUILD OUTDIR [ARCH [MOD]]   (ARCH: sm_90)
# MOD: a modifier chain of bench/gpu/cases.py MODS (e.g. tma, pp-sw128):
# its flags added, the bundles named <name>_<ARCH>__<MOD>.bundle.
set -u
B=$1/bin
O=$2/bundles/pr
A=${3:-sm_90}
M=${4:-}
FLAGS=""
SUF=""
if [ -n "$M" ]; then
  FLAGS=$(python3 -c "import sys; sys.path.insert(0, sys.argv[1]); import cases
print(' '.join(cases.MODS[m] for m in sys.argv[2].split('-')))" \
    "$(dirname "$0")" "$M") || exit 2
  SUF="__$M"
fi
mkdir -p "$O"
rc=0
while IFS=$'\t' read -r n args; do
  # shellcheck disable=SC2086
  "$B/rock-gen" --operation attention $args --arch "$A" -pv -rand_type float $FLAGS |
    "$B/rock-run" --compile-only -o "$O/${n}_$A$SUF.bundle" || { echo "FAILED $n"; rc=1; }
done < "$(dirname "$0")/wgmma-extra.tsv"
exit $rc
