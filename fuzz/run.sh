#!/usr/bin/env bash
# Builds the seed corpora and runs the libFuzzer targets of BUILD (default
# build-fuzz) for SECONDS each (default 60), one at a time; TARGETS (third
# argument) picks some of parse-verify pipeline rock-gen-args harness.
# Corpora and findings go to BUILD/fuzz/<target>/; prints one summary line
# per target: executions, corpus size, crashes/timeouts/leaks (files
# written by libFuzzer) and exec/s. Exit 1 when a target found something.
set -uo pipefail
build=${1:-build-fuzz}
seconds=${2:-60}
targets=${3:-parse-verify pipeline rock-gen-args harness}
src=$(cd "$(dirname "$0")/.." && pwd)
bin=$build/bin
out=$build/fuzz
mkdir -p "$out"
# verify_asan_link_order=0: libstdc++ (for libFuzzer) is loaded before the
# shared ASan runtime, harmlessly: it defines no allocator.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=1:verify_asan_link_order=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$src/fuzz/lsan.supp}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Seeds: lit inputs and rock-gen modules (IR targets), their rock.harness
# dictionaries (harness), rock-gen argument lists from the tests' RUN lines.
seeds=$out/seeds
if [[ ! -d $seeds ]]; then
  mkdir -p "$seeds"/{ir,harness,args}
  n=0
  for f in "$src"/test/Dialect/*.mlir "$src"/test/Passes/*.mlir \
           "$src"/test/Tools/*.mlir "$src"/test/Plugin/*.mlir; do
    # One seed per split-input-file chunk.
    awk -v dir="$seeds/ir" -v base="$(basename "$f")" '
      /^\/\/ -----/ { n++; next } { print > (dir "/" base "." n) }' "$f"
  done
  grep -ho 'rock-gen [^|>]*' "$src"/test/Tools/*.mlir "$src"/test/Passes/*.mlir \
    | sed 's/^rock-gen //; s/%[a-z_]*//g' | sort -u | while read -r line; do
    n=$((n + 1))
    echo "$line" | tr ' ' '\n' | grep -v '^$' > "$seeds/args/$n"
    # shellcheck disable=SC2086
    if "$src/build/bin/rock-gen" $line -pv > "$seeds/ir/gen.$n.mlir" 2>/dev/null; then
      grep -o 'rock.harness = {[^}]*}' "$seeds/ir/gen.$n.mlir" \
        | sed 's/^rock.harness = //' > "$seeds/harness/$n"
    else
      rm -f "$seeds/ir/gen.$n.mlir"
    fi
  done
  find "$seeds" -type f -empty -delete
fi

status=0
for t in $targets; do
  exe=$bin/rock-fuzz-$t
  dir=$out/$t
  mkdir -p "$dir/corpus" "$dir/findings"
  case $t in
    parse-verify|pipeline) seed=$seeds/ir ;;
    harness) seed=$seeds/harness ;;
    rock-gen-args) seed=$seeds/args ;;
  esac
  opts=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096
        -close_fd_mask=3 -print_final_stats=1
        -artifact_prefix="$dir/findings/")
  [[ $t == pipeline ]] && opts+=(-max_len=16384)
  "$exe" "${opts[@]}" "$dir/corpus" "$seed" > "$dir/log.txt" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log.txt")
  found=$(find "$dir/findings" -type f | wc -l)
  echo "$t: ${execs:-0} executions, ${rate:-0} exec/s, corpus $(ls "$dir/corpus" | wc -l), findings $found (rc $rc)"
  [[ $rc -ne 0 || $found -ne 0 ]] && status=1
done
exit $status
