#!/usr/bin/env bash
# Installs, from Debian's packages, everything rock needs to build, test and
# benchmark. Idempotent: when every package is present it only checks and
# returns in well under a second; `apt-get update` runs only when something
# is missing.
#
#   scripts/install-deps.sh [--dry-run]
#
# --dry-run prints the commands it would run (or that nothing is missing)
# and changes nothing. ROCK_BENCH_DEPS=1 adds the benchmark peers;
# ROCK_DEPS_EXTRA="pkg ..." adds packages (tests use it to name one that is
# not installed).
set -euo pipefail

dry=0
case "${1:-}" in
  --dry-run) dry=1 ;;
  "") ;;
  *) echo "usage: $0 [--dry-run]" >&2; exit 2 ;;
esac

pkgs=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools lld-22
      libomp-22-dev libclang-rt-22-dev rocm-device-libs clang-22 clang-format-22
      python3 ninja-build cmake make gcc g++
      python3-numpy libopenblas0-pthread)
if [[ "${ROCK_BENCH_DEPS:-0}" == 1 ]]; then
  pkgs+=(python3-matplotlib python3-torch)
fi
# shellcheck disable=SC2206
pkgs+=(${ROCK_DEPS_EXTRA:-})

# One dpkg-query for all packages: the names of those installed. It exits 1
# when any named package is unknown to dpkg (on a fresh machine: most of
# them), which must not end the script under `set -e -o pipefail`.
installed=" $(dpkg-query -W -f='${Package}=${db:Status-Abbrev}\n' "${pkgs[@]}" \
  2>/dev/null | sed -n 's/=ii *$//p' | tr '\n' ' ' || true)"
missing=()
for p in "${pkgs[@]}"; do
  [[ "$installed" == *" $p "* ]] || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  [[ $dry == 1 ]] && echo "install-deps: all ${#pkgs[@]} packages installed"
  exit 0
fi

echo "install-deps: missing: ${missing[*]}" >&2
SUDO=""
[[ $(id -u) -ne 0 ]] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
run() {
  if [[ $dry == 1 ]]; then
    echo "$*"
  else
    "$@"
  fi
}
run $SUDO apt-get update -qq
if [[ $dry == 1 ]]; then
  run $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
