#!/usr/bin/env bash
# make run: the main job. Generates a paged, GQA, split-KV, causal decode
# problem (2 sequences of up to 4096 tokens in a KV cache of 1024-element
# pages, 32 query heads over 8 KV heads, head dim 128, f16), runs it on the
# CPU, checks it against the f64 reference and prints the verdict and times.
set -euo pipefail
build=${1:-build}
cmd=("$build/bin/rock-gen" --operation attention -t f16 -g 2 -num_heads_q 32
     -num_heads_kv 8 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128
     -head_dim_v 128 -causal -prefix_offset=4095 -current_seq_len=4000,2500
     -split_kv 4 -return_lse --paged-attention --page-size 1024 -pv
     -rand 1 -rand_type float)
echo "+ ${cmd[*]} | $build/bin/rock-run -v --time"
"${cmd[@]}" | "$build/bin/rock-run" -v --time
