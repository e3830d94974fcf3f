// B = 1 decode with grid 1 (GQA 8/1): rock-run sets rock.num_threads from
// OMP_NUM_THREADS, and rock-lower-gridwise-attention splits the 64 key tiles
// into 8 internal partitions combined into out / LSE. KV-cache lengths 300
// (5 tiles) and 10 (1 tile, 7 partitions empty, LSE -inf) and a causal
// decode with prefix offset; --no-auto-split leaves the attribute unset.
// f32 relDiff 2e-5: the K operand is key-major here, whose gemm0 sums d in
// order; elementwise relative error on outputs near 0 reaches 5e-6.
// RUN: rock-gen -num_heads_q 8 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 -rand 7 -rand_type float -pv -relDiff_threshold 0.00002 -current_seq_len=300 -return_lse | env OMP_NUM_THREADS=8 rock-run -v | FileCheck %s --check-prefixes=CHECK,T8
// RUN: rock-gen -num_heads_q 8 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 -rand 7 -rand_type float -pv -relDiff_threshold 0.00002 -current_seq_len=10 -return_lse | env OMP_NUM_THREADS=8 rock-run -v | FileCheck %s --check-prefixes=CHECK,T8
// RUN: rock-gen -num_heads_q 8 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 -rand 7 -rand_type float -pv -relDiff_threshold 0.00002 -causal -current_seq_len=3000 -prefix_offset=100 -return_lse | env OMP_NUM_THREADS=8 rock-run -v | FileCheck %s --check-prefixes=CHECK,T8
// RUN: rock-gen -t bf16 -num_heads_q 8 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 -rand 7 -rand_type float -pv -current_seq_len=10 -return_lse -relDiff_threshold 0.3 -absDiff_threshold 0.3 -RMS_threshold 0.15 | env OMP_NUM_THREADS=8 rock-run -v | FileCheck %s --check-prefixes=CHECK,T8
// RUN: %if avx512 %{ rock-gen -t bf16 -num_heads_q 8 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 -rand 7 -rand_type float -pv -current_seq_len=10 -return_lse -relDiff_threshold 0.3 -absDiff_threshold 0.3 -RMS_threshold 0.15 | env OMP_NUM_THREADS=8 rock-run -v --cpu x86-64-v3 | FileCheck %s --check-prefixes=CHECK,T8 %}
// RUN: rock-gen -num_heads_q 8 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 -rand 7 -rand_type float -pv -relDiff_threshold 0.00002 -current_seq_len=10 -return_lse | env OMP_NUM_THREADS=8 rock-run -v --no-auto-split | FileCheck %s --check-prefixes=CHECK,OFF
// CHECK: out: {{.*}}NaN mismatches 0
// T8: threads: rock.num_threads 8
// OFF: threads: rock.num_threads unset (no internal split)
// CHECK: [1 1 1]
