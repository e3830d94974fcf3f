// Shapes the GPU schedule cannot hold are one-line errors at the op.
// RUN: rock-gen --operation attention -t f32 -g 1 -num_heads_q 1 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 4096 -head_dim_v 4096 --arch sm_90 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=CHUNKS
// CHUNKS: error: head dims 4096 / 4096 are too large for the GPU lowering
// RUN: rock-gen --operation attention -t f32 -g 1 -num_heads_q 1 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 8 -head_dim_v 16384 --arch sm_90 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SMEM
// SMEM: error: head_dim_v 16384 is too large for the GPU lowering
// The schedule knobs read from the module are checked.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel=false \
// RUN:   | sed 's/^module attributes {/module attributes {rock.gpu_keys_per_group = 32 : i64, /' \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=KNOBS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel=false \
// RUN:   | sed 's/^module attributes {/module attributes {rock.gpu_lanes_min = 12 : i64, /' \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=KNOBS
// KNOBS: error: rock.gpu_lanes_min must be a power of two <= 32, rock.gpu_keys_per_group <= 16 and rock.gpu_pipeline_stages 1 or 2
// The schedule switches (docs/gpu.md): a bool that is not one, a warp count
// out of range, a string for an integer.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel=1 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWBOOL
// SWBOOL: error: rock.gpu_accel must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_warps=9 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWINT
// SWINT: error: rock.gpu_accel_warps must be an integer in [1, 8]
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off --module-attr 'rock.gpu_accel_warps="4"' \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWSTR
// SWSTR: error: rock.gpu_accel_warps must be an integer in [1, 8]
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_wgmma=2 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWBOOL2
// SWBOOL2: error: rock.gpu_accel_wgmma must be true or false
// The programmatic dependent launch switch (rock__gpuPdl), read by every
// GPU lowering, split or not: an integer, a string.
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_pdl=1 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWPDL
// SWPDL: error: rock.gpu_pdl must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr 'rock.gpu_pdl="on"' \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWPDL
// The sm_90a prefill schedule's switches (passes/gpu/attention_wgmma.c).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_wgmma=1 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWWG
// SWWG: error: rock.gpu_wgmma must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_wgmma_overlap=0 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWOV
// SWOV: error: rock.gpu_wgmma_overlap must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr 'rock.gpu_wgmma_producer="no"' \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWPR
// SWPR: error: rock.gpu_wgmma_producer must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_wgmma_pingpong=1 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWPP
// SWPP: error: rock.gpu_wgmma_pingpong must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr 'rock.gpu_wgmma_swizzle128="128"' \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWSZ
// SWSZ: error: rock.gpu_wgmma_swizzle128 must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_wgmma_tma=2 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWTMA
// SWTMA: error: rock.gpu_wgmma_tma must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_wgmma_tma_paged=2 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWTMAP
// SWTMAP: error: rock.gpu_wgmma_tma_paged must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_wgmma_tma_paged_lanes=3 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWTMAL
// SWTMAL: error: rock.gpu_wgmma_tma_paged_lanes must be an integer in [0, 2]
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_wgmma_wide=1 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWWIDE
// SWWIDE: error: rock.gpu_wgmma_wide must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_wgmma_keys=100 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWKEYS
// SWKEYS: error: rock.gpu_wgmma_keys must be 0, 64, 128, 192 or 256
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_wgmma_keys=320 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWKEYS2
// SWKEYS2: error: rock.gpu_wgmma_keys must be 0, 64, 128, 192 or 256
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_wgmma_consumers=4 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWCW
// SWCW: error: rock.gpu_wgmma_consumers must be an integer in [0, 3]
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_l2_prefetch=5 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWL2
// SWL2: error: rock.gpu_accel_l2_prefetch must be an integer in [0, 4]
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_min_rows=0 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWROWS
// SWROWS: error: rock.gpu_accel_min_rows must be an integer in [1, 16]
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --paged-attention --num-pages 32 --page-size 2048 --module-attr rock.gpu_accel_page_ahead=2 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWPA
// SWPA: error: rock.gpu_accel_page_ahead must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr 'rock.gpu_fused_combine="yes"' \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWFC
// SWFC: error: rock.gpu_fused_combine must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_kv_overlap=2 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWKVO
// SWKVO: error: rock.gpu_accel_kv_overlap must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr 'rock.gpu_split_fill="on"' \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWFILL
// SWFILL: error: rock.gpu_split_fill must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_stages=7 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWST
// SWST: error: rock.gpu_accel_stages must be an integer in [2, 6]
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_stages=1 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWST1
// SWST1: error: rock.gpu_accel_stages must be an integer in [2, 6]
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_kt_pairs=2 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWKP
// SWKP: error: rock.gpu_accel_kt_pairs must be true or false
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_key_warps=3 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWKW3
// SWKW3: error: rock.gpu_accel_key_warps must be 1, 2 or 4
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_key_warps=8 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWKW8
// SWKW8: error: rock.gpu_accel_key_warps must be 1, 2 or 4
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_key_warps=true \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SWKWB
// SWKWB: error: rock.gpu_accel_key_warps must be 1, 2 or 4
// The fused merge's fan-in: 8, 16 or 32 (a row's children on one warp's
// lanes); 64 (above the warp) and any other value refused.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_fused_fan=7 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=FAN7
// FAN7: error: rock.gpu_fused_fan must be 8, 16 or 32
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_fused_fan=12 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=FAN12
// FAN12: error: rock.gpu_fused_fan must be 8, 16 or 32
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_fused_fan=64 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=FAN64
// FAN64: error: rock.gpu_fused_fan must be 8, 16 or 32
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_fused_fan=128 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=FAN128
// FAN128: error: rock.gpu_fused_fan must be 8, 16 or 32
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_fused_fan=true \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=FANB
// FANB: error: rock.gpu_fused_fan must be 8, 16 or 32
