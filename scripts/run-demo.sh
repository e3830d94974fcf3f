#!/usr/bin/env bash
# make run: the main job. Until rock-gen/rock-run exist, verify and lower a
# small rock module and print it.
set -euo pipefail
build=${1:-build}
if [[ -x "$build/bin/rock-gen" && -x "$build/bin/rock-run" ]]; then
  exec "$build/bin/rock-gen" --operation attention -t f16 -g 2 -num_heads_q 32 \
    -num_heads_kv 8 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 \
    -head_dim_v 128 -causal -current_seq_len=4000,2500 -split_kv 4 \
    -return_lse --paged-attention --page-size 1024 -pv \
    | "$build/bin/rock-run" -v --time
fi
"$build/bin/rock-opt" test/Dialect/ops.mlir --rock-fold-transforms
