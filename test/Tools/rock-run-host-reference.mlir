// rocmlir-gen's MLIR reference, @host_naive_attention (TOSA, rock-gen -pv /
// -ph, capi/lib/host_reference.c), checked against rock's independent f64
// reference: rock-run --check-host-reference runs it on the CPU in place of
// the kernel and applies the same gates. One case per feature it models.
// RUN: rock-gen -t f32 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -pv | rock-run --check-host-reference | FileCheck %s
// RUN: rock-gen -t f16 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 24 --with-attn-scale --with-attn-bias -pv | rock-run --check-host-reference | FileCheck %s
// RUN: rock-gen -t f32 -g 2 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -causal -pv | rock-run --check-host-reference | FileCheck %s
// RUN: rock-gen -t f16 -g 2 -num_heads_q 4 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 16 -head_dim_v 16 -current_seq_len=30,7 -return_lse -split_kv 3 -pv | rock-run --check-host-reference | FileCheck %s
// RUN: rock-gen -t i8 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 --with-attn-scale --with-attn-bias -pv | rock-run --check-host-reference | FileCheck %s
// RUN: rock-gen -t f16 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 8 -seq_len_k 32 -head_dim_qk 16 -head_dim_v 16 --paged-attention --page-size 128 -pv | rock-run --check-host-reference | FileCheck %s
// RUN: rock-gen -t f16 -seq_len_q 1 -seq_len_k 32 -head_dim_qk 16 -head_dim_v 16 --paged-attention --page-size 128 --transK --transV -current_seq_len=20 -return_lse -split_kv 2 -pv | rock-run --check-host-reference | FileCheck %s
// RUN: rock-gen -t f16 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -sliding_window_size 5 -current_seq_len=30 --with-attn-scale -pv | rock-run --check-host-reference | FileCheck %s
// Fully masked rows (a negative prefix offset): O = 0 and lse = -inf.
// RUN: rock-gen -t f32 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -causal -prefix_offset=-3 -return_lse --transQ --transO -pv | rock-run --check-host-reference | FileCheck %s
// RUN: rock-gen -t f16 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -causal -causal_look_back 2 --transK --transV -pv | rock-run --check-host-reference | FileCheck %s
// RUN: rock-gen -t f32 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -softmax_dtype f16 -pv | rock-run --check-host-reference | FileCheck %s
// bf16: rocmlir-gen's reference rounds the normalised P to V's type, rock's
// f64 reference (as its kernel) rounds exp(s - m) before the division
// (docs/rocmlir-compat.md): RMS 0.0022 here, within a quarter bf16 ulp.
// RUN: rock-gen -t bf16 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -pv -RMS_threshold 0.005 | rock-run --check-host-reference | FileCheck %s
// CHECK: {{^}}[1 1 1]

// The check can fail: a reference that multiplies by exp(row sum) instead
// of dividing by it.
// RUN: rock-gen -t f32 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -pv > %t.mlir
// RUN: sed 's/tosa.reciprocal/tosa.exp/' %t.mlir > %t.wrong.mlir
// RUN: not rock-run --check-host-reference %t.wrong.mlir | FileCheck %s --check-prefix=WRONG
// WRONG: {{^}}[0 0 0]

// Without the host functions there is nothing to check.
// RUN: rock-gen -t f32 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 | sh -c 'rock-run --check-host-reference; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=NOREF
// NOREF: rock-run: error: <stdin> has no @host_naive_attention (generate it with rock-gen -pv or -ph)
// NOREF-NEXT: exit 3
