// rock-run --no-prefetch (the prefetch ablation of bench/run.py) sets the
// module attribute rock.no_prefetch; the kernel without software prefetch
// gives the same verdict. rock-opt shows the attribute's effect on the IR
// (test/Passes/rock-lower-gridwise-attention-no-prefetch.mlir).
// RUN: rock-gen --operation attention -t f32 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 -split_kv 2 -return_lse -pv | rock-run --no-prefetch | FileCheck %s
// RUN: rock-gen --operation attention -t f32 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 -pv | rock-run --no-prefetch=true | FileCheck %s
// CHECK: [1 1 1]
