#!/bin/bash
# The device run of the sm_90a prefill schedule's plan parameters at d 64 and
# d 256 (rock.gpu_wgmma_wide, rock.gpu_wgmma_keys, rock.gpu_wgmma_consumers;
# docs/gpu-accel.md): one carry CARRY (default build-whd) holding
#   - correctness: the PR bundles on warpgroup MMA once per switch chain
#     (MODS) where the switch changes the kernel (--pr-changed-only), and the
#     wgmma-extra.tsv cases plain and with each switch where it changes the
#     kernel (and with wide-pp / k192-pp), all verified by rock-run-gpu
#     against the f64 reference;
#   - timing: the shapes suite's d 64 and d 256 rows in the variants below,
#     with cuDNN and flash in the same process (bench/gpu/attention_bench.py);
#   - go.sh (bench/gpu/wide-go.sh): both, correctness first.
# Usage: bench/gpu/wide-prepare.sh [BUILD [CARRY]]; then on the GPU machine
#   OUT=$OUT bash CARRY/go.sh
set -eu
B=$(cd "${1:-build}" && pwd)
C=${2:-build-whd}
R=$(cd "$(dirname "$0")/../.." && pwd)
MODS=wide,k192,cw3,wide-tma0
D256=dense,dense-wide,dense-wide-pp,dense-wide-tma0,kmaj-wide
D64=dense,dense-k192,dense-cw3,dense-pp,dense-k192-pp,kmaj-k192,kmaj-cw3
re() { echo "$1" | sed 's/,/|/g'; }
python3 "$R/scripts/gpu-roundtrip.py" prepare --build "$B" --carry "$C" \
  --suites shapes --variants "shapes=$D256,$D64" \
  --filter "^(?!shapes-)|^shapes-($(re $D256))-mha-B2-S4k-d256-c[01]\$|^shapes-($(re $D64))-mha-B2-S4k-d64\$" \
  --pr-mods "base,$MODS" --pr-wgmma-only --pr-changed-only
T=$(mktemp -d)
for m in "" wide k192 cw3 wide-pp k192-pp; do
  bash "$R/bench/gpu/wgmma-extra.sh" "$B" "$T" sm_90 $m
done
# The extras: all plain ones, the switched ones whose kernels differ.
python3 - "$T/bundles/pr" "$R/bench/gpu" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[2])
from attention_bench import read_bundle
d = sys.argv[1]
def objs(n):
    return [o["data"] for o in read_bundle(os.path.join(d, n))["objects"]]
kept = dropped = 0
for f in sorted(os.listdir(d)):
    if "__" not in f:
        continue
    plain = f.split("__")[0] + ".bundle"
    if objs(f) == objs(plain):
        os.remove(os.path.join(d, f))
        dropped += 1
    else:
        kept += 1
print(f"wgmma-extra: {kept} switched bundles differ from the plain ones "
      f"(kept), {dropped} do not (left out)")
PY
mkdir -p "$T/u"
tar xzf "$C/bundles.tar.gz" -C "$T/u"
cp "$T"/bundles/pr/*.bundle "$T/u/bundles/pr/"
tar czf "$C/bundles.tar.gz" -C "$T/u" bundles
echo "$(ls "$T/u/bundles/pr" | wc -l) correctness bundles, $(ls "$T/u/bundles/bench" | grep -c bundle) timed"
rm -rf "$T"
cp "$R/bench/gpu/wide-go.sh" "$C/go.sh"
