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
# Usage: bench/gpu/wide-prepare.sh [BUILD [CARRY [PROFILE]]]; then on the
# GPU machine   OUT=$OUT bash CARRY/go.sh
# PROFILE run11 (default): the switches of run 11 (then opt-in); defaults:
# run 11's winners as the defaults (planShape's rule) beside the forms
# before them (wide0, cw2, pp0), also timing the prefill S 4k / 8k rows
# (expected 70-90 s, at most 60 + 12 + 100 s of timeouts).
set -eu
B=$(cd "${1:-build}" && pwd)
C=${2:-build-whd}
PROFILE=${3:-run11}
R=$(cd "$(dirname "$0")/../.." && pwd)
case $PROFILE in
run11)
  MODS=wide,k192,cw3,wide-tma0
  D256=dense,dense-wide,dense-wide-pp,dense-wide-tma0,kmaj-wide
  D64=dense,dense-k192,dense-cw3,dense-pp,dense-k192-pp,kmaj-k192,kmaj-cw3
  XMODS="wide k192 cw3 wide-pp k192-pp"
  GOENV=""
  PREFILL=""
  ;;
defaults)
  MODS=wide0,cw2,pp0
  D256=dense,dense-pp0,dense-wide0,kmaj
  D64=dense,dense-cw2,kmaj,kmaj-cw2
  XMODS="wide0 cw2 pp0"
  GOENV='SWITCHES="wide0 cw2 pp0"; SUITES=shapes,prefill; TIMING_S=100'
  PREFILL=dense
  ;;
*) echo "unknown profile $PROFILE (run11, defaults)" >&2; exit 2 ;;
esac
re() { echo "$1" | sed 's/,/|/g'; }
SUITES=shapes
FILTER="^(?!shapes-|prefill-)|^shapes-($(re $D256))-mha-B2-S4k-d256-c[01]\$|^shapes-($(re $D64))-mha-B2-S4k-d64\$"
VARS=(--variants "shapes=$D256,$D64")
if [ -n "$PREFILL" ]; then
  SUITES=shapes,prefill
  FILTER="$FILTER|^prefill-($(re $PREFILL))-S(4096|8192)-c[01]\$"
  VARS+=(--variants "prefill=$PREFILL")
fi
python3 "$R/scripts/gpu-roundtrip.py" prepare --build "$B" --carry "$C" \
  --suites "$SUITES" "${VARS[@]}" --filter "$FILTER" \
  --pr-mods "base,$MODS" --pr-wgmma-only --pr-changed-only
T=$(mktemp -d)
for m in "" $XMODS; do
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
if [ -n "$GOENV" ]; then echo "$GOENV" > "$C/go.env"; else rm -f "$C/go.env"; fi
