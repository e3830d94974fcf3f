// The sliding window and the causal band through rock's compiler, on
// rocMLIR's e2e cases (its test/e2e AttentionCausalLookBack and sliding
// window LSE files): the window looks back from the KV-cache index P (keys
// [max(0, P - W), P]), the band from each row's causal bound (keys
// [max(0, i - L), i]); docs/semantics.md §3. test/Runtime/reference.c and
// rock-run-masks.mlir pin the boundary rows against hand-computed values
// and a hand-written kernel.
//
// Band plus a KV cache, P = 100: rows 109..127 lie wholly above the cache
// end and are fully masked.
// RUN: rock-gen --causal -causal_look_back=8 -last_valid_kv_index=100 -seq_len_q 128 -seq_len_k 128 -head_dim_qk 32 -head_dim_v 32 -t f16 -rand 1 -rand_type float -pv | rock-run | FileCheck %s
// Band plus a sliding window (P = 127 by default): keys [max(63, i - 8), i],
// so every row below 63 is fully masked.
// RUN: rock-gen --causal -causal_look_back=8 -sliding_window_look_back=64 -seq_len_q 128 -seq_len_k 128 -head_dim_qk 32 -head_dim_v 32 -t f16 -rand 1 -rand_type float -pv | rock-run | FileCheck %s
// Ragged band and lengths: neither edge lands on a tile boundary.
// RUN: rock-gen --causal -causal_look_back=17 -seq_len_q 130 -seq_len_k 130 -head_dim_qk 40 -head_dim_v 40 -t f16 -rand 1 -rand_type float -pv | rock-run | FileCheck %s
// CHECK: [1 1 1]
//
// A fully masked row: P = 2, W = 1 keeps keys [1, 2], the causal bound of
// the only query row is key 0. (A window ending at the row's causal bound
// would keep key 0.) O = 0, LSE = -inf, in the kernel and the reference.
// RUN: rock-gen -last_valid_kv_index=2 -sliding_window_look_back=1 --causal -return_lse -seq_len_q 1 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -t f32 -rand 1 -rand_type float -pv -pr | rock-run | FileCheck %s --check-prefix=MASKED
// MASKED: result out (f32, 32 elements):
// MASKED-NEXT: {{^}}  0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0{{$}}
// MASKED: result LSE (f32, 1 elements):
// MASKED-NEXT: {{^}}  -inf{{$}}
// MASKED: [1 1 1]
