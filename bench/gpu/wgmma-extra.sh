#!/bin/bash
# The extra verified bundles of the sm_90a prefill schedule
# (bench/RESULTS-gpu-wgmma.md): every line of wgmma-extra.tsv (name, rock-gen
# flags) becomes OUTDIR/bundles/pr/<name>_<ARCH>.bundle, verified on the GPU
# by rock-run-gpu against the f64 reference with rock-gen's default
# thresholds (-pv -rand_type float).
# Usage: bench/gpu/wgmma-extra.sh BUILD OUTDIR [ARCH]   (ARCH: sm_90)
set -u
B=$1/bin
O=$2/bundles/pr
A=${3:-sm_90}
mkdir -p "$O"
rc=0
while IFS=$'\t' read -r n args; do
  # shellcheck disable=SC2086
  "$B/rock-gen" --operation attention $args --arch "$A" -pv -rand_type float |
    "$B/rock-run" --compile-only -o "$O/${n}_$A.bundle" || { echo "FAILED $n"; rc=1; }
done < "$(dirname "$0")/wgmma-extra.tsv"
exit $rc
