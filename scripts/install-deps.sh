#!/usr/bin/env bash
# Installs, from Debian's packages, everything rock needs to build, test and
# benchmark. Idempotent: when every package is present it only checks and
# returns in well under a second; `apt-get update` runs only when something
# is missing.
set -euo pipefail

pkgs=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools lld-22
      libomp-22-dev libclang-rt-22-dev rocm-device-libs clang-22 python3 ninja-build cmake make gcc g++
      python3-numpy libopenblas0-pthread)
if [[ "${ROCK_BENCH_DEPS:-0}" == 1 ]]; then
  pkgs+=(python3-matplotlib python3-torch)
fi

# One dpkg-query for all packages: the names of those installed.
installed=" $(dpkg-query -W -f='${Package}=${db:Status-Abbrev}\n' "${pkgs[@]}" \
  2>/dev/null | sed -n 's/=ii *$//p' | tr '\n' ' ' || true)"
missing=()
for p in "${pkgs[@]}"; do
  [[ "$installed" == *" $p "* ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
[[ $(id -u) -ne 0 ]] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
