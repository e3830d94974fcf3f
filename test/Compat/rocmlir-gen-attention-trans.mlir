// Follows rocMLIR's mlir/test/rocmlir-gen/attention-kernel.mlir (its
// per-tensor transpose and bias runs): -transQ / -transV / -transO surface a
// `tr` on the op, --with-attn-bias feeds the bias to the pre-softmax region,
// and --transBias stores it [Sk, Sq] per batch head: a view to that layout,
// then the permutation to the score layout. On the CPU the kernel, rock-run's
// reference and the module's @host_naive_attention agree on it; read as
// untransposed (the harness flag dropped) the same kernel fails, so the
// kernel does read the transposed layout.
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 128 -seq_len_k 256 -head_dim_qk 32 -head_dim_v 64 -t f16 -transQ | FileCheck %s --enable-var-scope --check-prefix=TRANS_Q
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 128 -seq_len_k 256 -head_dim_qk 32 -head_dim_v 64 -t f16 -transV | FileCheck %s --enable-var-scope --check-prefix=TRANS_V
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 128 -seq_len_k 256 -head_dim_qk 32 -head_dim_v 64 -t f16 -transO | FileCheck %s --enable-var-scope --check-prefix=TRANS_O
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 128 -seq_len_k 256 -head_dim_qk 32 -head_dim_v 64 -t f16 --with-attn-bias | FileCheck %s --enable-var-scope --check-prefix=BIAS
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 128 -seq_len_k 256 -head_dim_qk 32 -head_dim_v 64 -t f16 --with-attn-bias --transBias | rock-opt | FileCheck %s --enable-var-scope --check-prefix=TRANS_BIAS
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 128 -seq_len_k 256 -head_dim_qk 32 -head_dim_v 64 -t f16 --with-attn-bias --transBias -pv | FileCheck %s --enable-var-scope --check-prefix=TRANS_BIAS_HOST
// RUN: rock-gen --operation attention -seq_len_q 24 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 --with-attn-bias --with-attn-scale --transBias -num_heads_q 2 -rand 1 -pv > %t.mlir
// RUN: rock-run %t.mlir | FileCheck %s --check-prefix=PASS
// RUN: rock-run --check-host-reference %t.mlir | FileCheck %s --check-prefix=PASS
// RUN: sed 's/transBias = true, //' %t.mlir | not rock-run | FileCheck %s --check-prefix=UNTRANSPOSED
// RUN: rock-gen --operation attention -seq_len_q 24 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -t i8 --with-attn-bias --transBias -rand 1 -pv | rock-run | FileCheck %s --check-prefix=PASS
// RUN: not rock-gen --operation attention -p --transBias 2>&1 | FileCheck %s --check-prefix=NOBIAS

// TRANS_Q-LABEL: func.func @rock_attention
// TRANS_Q: rock.transform %{{.*}} : memref<4096xf16> to memref<1x32x128xf16>
// TRANS_Q: rock.transform %{{.*}} : memref<8192xf16> to memref<1x32x256xf16>
// TRANS_Q: rock.transform %{{.*}} : memref<16384xf16> to memref<1x256x64xf16>
// TRANS_Q: rock.attention
// TRANS_Q: qk = tr %{{.*}} * %{{.*}} : memref<1x32x128xf16>, memref<1x32x256xf16>

// TRANS_V-LABEL: func.func @rock_attention
// TRANS_V: rock.transform %{{.*}} : memref<16384xf16> to memref<1x64x256xf16>
// TRANS_V: softmax(qk) * tr %{{.*}} : memref<1x64x256xf16>

// TRANS_O-LABEL: func.func @rock_attention
// TRANS_O: tr %{{.*}} = softmax(qk) * %{{.*}} : memref<1x256x64xf16> -> memref<1x64x128xf16>

// BIAS-LABEL: func.func @rock_attention
// BIAS: %[[bias:.*]] = rock.transform %{{.*}} : memref<32768xf16> to memref<1x128x256xf16>
// BIAS-NOT: rock.transform %[[bias]]
// BIAS: qk = elementwise otherIns(%[[bias]] : memref<1x128x256xf16>)

// TRANS_BIAS: #[[$PERM:transform_map[0-9]*]] = #rock.transform_map<#{{.*}} by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <PassThrough ["m", "n"] at [1, 2] -> ["m", "n"] at [2, 1]>] bounds = [1, 128, 256] -> [1, 256, 128]>
// TRANS_BIAS-LABEL: func.func @rock_attention
// TRANS_BIAS: %[[biasRaw:.*]] = rock.transform %{{.*}} : memref<32768xf16> to memref<1x256x128xf16>
// TRANS_BIAS-NEXT: %[[bias:.*]] = rock.transform %[[biasRaw]] by #[[$PERM]] : memref<1x256x128xf16> to memref<1x128x256xf16>
// TRANS_BIAS: rock.attention
// TRANS_BIAS: qk = elementwise otherIns(%[[bias]] : memref<1x128x256xf16>)

// The host reference transposes the [Sk, Sq] bias back (TOSA, where
// rocmlir-gen's newest host uses linalg.transpose), and the harness records
// the layout.
// TRANS_BIAS_HOST-LABEL: func.func @host_naive_attention
// TRANS_BIAS_HOST: tosa.reshape %{{.*}}, %{{.*}} : (tensor<32768xf16>, !tosa.shape<3>) -> tensor<1x256x128xf16>
// TRANS_BIAS_HOST-NEXT: tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 1>} : (tensor<1x256x128xf16>) -> tensor<1x128x256xf16>
// TRANS_BIAS_HOST-LABEL: func.func @main
// TRANS_BIAS_HOST-SAME: transBias = true

// PASS: [1 1 1]
// UNTRANSPOSED: [0 0 0]
// NOBIAS: rock-gen: error: --transBias needs --with-attn-bias
