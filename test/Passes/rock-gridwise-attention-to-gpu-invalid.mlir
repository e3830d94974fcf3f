// Shapes the GPU schedule cannot hold are one-line errors at the op.
// RUN: rock-gen --operation attention -t f32 -g 1 -num_heads_q 1 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 4096 -head_dim_v 4096 --arch sm_90 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=CHUNKS
// CHUNKS: error: head dims 4096 / 4096 are too large for the GPU lowering
// RUN: rock-gen --operation attention -t f32 -g 1 -num_heads_q 1 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 8 -head_dim_v 16384 --arch sm_90 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' 2>&1 | FileCheck %s --check-prefix=SMEM
// SMEM: error: head_dim_v 16384 is too large for the GPU lowering
