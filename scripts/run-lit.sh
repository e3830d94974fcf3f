#!/usr/bin/env bash
# Runs lit over build/test with the given suite level (pr or nightly), writes
# BUILD/lit-results.json and prints one line "N passed, N failed".
set -uo pipefail
build=${1:-build}
level=${2:-pr}
lit=${LIT:-/usr/lib/llvm-22/bin/lit}
opts=(-sv --time-tests -o "$build/lit-results.json" --param "suite=$level")
[[ -n "${ROCK_LIT_FILTER:-}" ]] && opts+=(--filter "$ROCK_LIT_FILTER")
"$lit" "${opts[@]}" "$build/test"
rc=$?
python3 - "$build/lit-results.json" <<'PY'
import json, sys
try:
    t = json.load(open(sys.argv[1]))["tests"]
except Exception as e:
    print(f"cannot read lit results: {e}", file=sys.stderr)
    print("0 passed, 1 failed")
    sys.exit(0)
p = sum(x["code"] in ("PASS", "XFAIL") for x in t)
f = sum(x["code"] in ("FAIL", "XPASS", "UNRESOLVED", "TIMEOUT") for x in t)
print(f"{p} passed, {f} failed")
PY
exit $rc
