// REQUIRES: nightly
// The whole full tuning space of several problems per target compiles (sm_*,
// gfx*) or compiles and verifies (cpu): scripts/tuning-space-check.py.
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root -- -t f32 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 3 -seq_len_k 700 -head_dim_qk 64 -head_dim_v 64 -causal -relDiff_threshold 1e-4 | FileCheck %s --check-prefix=OK
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root -- -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 100 -seq_len_k 300 -head_dim_qk 64 -head_dim_v 64 --paged-attention --page-size 1024 | FileCheck %s --check-prefix=OK
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root -- -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 | FileCheck %s --check-prefix=OK
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root -- -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1000 -head_dim_qk 256 -head_dim_v 256 --arch sm_90 --paged-attention --page-size 16384 | FileCheck %s --check-prefix=OK
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root -- -t f16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 100 -seq_len_k 300 -head_dim_qk 64 -head_dim_v 64 --arch sm_90a -causal | FileCheck %s --check-prefix=OK
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root -- -t f32 -g 1 -num_heads_q 4 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 777 -head_dim_qk 64 -head_dim_v 32 --arch sm_90 | FileCheck %s --check-prefix=OK
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root %if rocm-device-libs %{%} %else %{--amd-llvm-only%} -- -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --arch gfx942 | FileCheck %s --check-prefix=OK
// OK: {{^}}[[N:[0-9]+]] of [[N]] configs compiled
