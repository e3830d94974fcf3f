#!/usr/bin/env bash
# Checks (default) or fixes (--fix) the clang-format LLVM style (.clang-format)
# of rock's C and C++ sources: every tracked *.c, *.h and *.cpp outside
# build trees. Uses clang-format-22 (scripts/install-deps.sh installs it), or
# $CLANG_FORMAT.
#
#   scripts/check-format.sh [--fix] [FILE...]
#
# Exit status: 0 when every file is formatted (or after --fix), 1 when some
# file is not (clang-format prints each difference as an error), 2 on usage
# errors or a missing clang-format.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fix=0
if [[ "${1:-}" == --fix ]]; then
  fix=1
  shift
elif [[ "${1:-}" == -* ]]; then
  echo "usage: $0 [--fix] [FILE...]" >&2
  exit 2
fi
cf=${CLANG_FORMAT:-clang-format-22}
if ! command -v "$cf" >/dev/null; then
  echo "check-format: $cf not found (scripts/install-deps.sh installs it)" >&2
  exit 2
fi
if [[ $# -gt 0 ]]; then
  files=("$@")
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard \
    '*.c' '*.h' '*.cpp')
else
  mapfile -t files < <(find . -path ./build\* -prune -o \
    \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) -print | sort)
fi
if [[ $fix == 1 ]]; then
  "$cf" -i --style="file:$root/.clang-format" "${files[@]}"
  exit $?
fi
"$cf" --dry-run -Werror --style="file:$root/.clang-format" "${files[@]}" 2>&1 \
  | sed -n 's/^\([^ :]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1: not clang-formatted/p' \
  | sort -u
rc=${PIPESTATUS[0]}
if [[ $rc -ne 0 ]]; then
  echo "check-format: run scripts/check-format.sh --fix" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files clang-formatted"
