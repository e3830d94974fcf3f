// The combine is a loop over the splits: 4096 splits compile in well under
// a second (once 53 s and 2.5 GB with one block per split) and run correct.
// 64 keys over 4096 splits: most splits are empty (LSE -inf, never read).
// RUN: rock-gen -t f32 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 8 -head_dim_v 8 -split_kv 4096 -return_lse -pv > %t.mlir
// RUN: timeout 30 rock-opt --rock-cpu-pipeline %t.mlir | FileCheck %s --check-prefix=IR
// IR: llvm.func @rock_attention_combine
// RUN: rock-gen -t f16 -seq_len_q 3 -seq_len_k 300 -head_dim_qk 8 -head_dim_v 8 -split_kv 1024 -return_lse -causal -rand 3 -pv | timeout 60 rock-run | FileCheck %s
// RUN: timeout 60 rock-run %t.mlir | FileCheck %s
// CHECK: [1 1 1]
