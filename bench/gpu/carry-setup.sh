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
