// Follows rocMLIR's mlir/test/rocmlir-gen/attention-prefix-causal.mlir and
// attention-sliding-window.mlir: the same rock-gen runs and CHECK forms.
// Prefix-causal: the offset is one i32 argument broadcast to every head,
// recorded as prefixOffset next to causal (rocmlir-gen's older -causal=N
// spelling gives the same module); the host hides key > row + offset.
// Sliding window: slidingWindowSize on the op, and on the host the keys below
// max(0, currentSeqLen - window) hidden after the KV-cache mask; a fully
// masked row keeps finite max / sum operands (the lowest float, 1) while the
// LSE takes the raw max; without -current_seq_len every group's length is the
// last key (Sk - 1), filled by @main.
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -prefix_offset=5 --causal -num_heads_q 4 -num_heads_kv 4 -seq_len_q 8 -seq_len_k 16 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefix=PREFIX
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -causal=5 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 8 -seq_len_k 16 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefix=PREFIX
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -current_seq_len=33 -sliding_window_size=16 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefix=WINDOW
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -current_seq_len=2 -sliding_window_size=1 --causal -return_lse -seq_len_q 1 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefix=SAFE
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -g 2 -sliding_window_size=16 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --check-prefix=DEFAULT

// PREFIX: module attributes {mhal.arch = "[[$ARCH:.*]]"}
// PREFIX-LABEL: func.func @rock_attention
// PREFIX-SAME: (%{{.*}}: memref<1024xf32>, %{{.*}}: memref<2048xf32>, %{{.*}}: memref<2048xf32>, %[[PR:.*]]: memref<1xi32>, %{{.*}}: memref<1024xf32>)
// PREFIX-SAME: attributes {mhal.arch = "[[$ARCH]]", rock.kernel}
// PREFIX: %[[P:.*]] = rock.transform %[[PR]] {{.*}} : memref<1xi32> to memref<1xi32>
// PREFIX: rock.transform %{{.*}} : memref<1x4xi32> to memref<4xi32>
// PREFIX: rock.attention
// PREFIX-NEXT: qk = %{{.*}} * %{{.*}} : memref<4x8x32xf32>, memref<4x32x16xf32>
// PREFIX-NEXT: prefixOffset = (%{{.*}} : memref<4xi32>)
// PREFIX-NEXT: causal
// PREFIX-NEXT: softmax(qk)
// PREFIX-LABEL: func.func @host_naive_attention
// PREFIX: tosa.matmul {{.*}} -> tensor<4x8x16xf32>
// PREFIX: tosa.reshape %{{.*}}, %{{.*}} : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<1x4x8x16xf32>
// PREFIX: "tosa.const"() <{values = {{.*}} : tensor<8xi32>}> : () -> tensor<8xi32>
// PREFIX: "tosa.const"() <{values = {{.*}} : tensor<16xi32>}> : () -> tensor<16xi32>
// PREFIX: %[[OFF:.*]] = tosa.mul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x1x1x1xi32>, tensor<1x4x8x16xi32>, tensor<1xi8>) -> tensor<1x4x8x16xi32>
// PREFIX-NEXT: %[[LIM:.*]] = tosa.add %{{.*}}, %[[OFF]] : (tensor<1x4x8x16xi32>, tensor<1x4x8x16xi32>) -> tensor<1x4x8x16xi32>
// PREFIX-NEXT: %[[M:.*]] = tosa.greater %{{.*}}, %[[LIM]] : (tensor<1x4x8x16xi32>, tensor<1x4x8x16xi32>) -> tensor<1x4x8x16xi1>
// PREFIX-NEXT: %[[NINF:.*]] = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x4x8x16xf32>}>
// PREFIX-NEXT: tosa.select %[[M]], %[[NINF]], %{{.*}} : {{.*}} -> tensor<1x4x8x16xf32>
// PREFIX: tosa.reshape %{{.*}}, %{{.*}} : (tensor<1x4x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
// PREFIX: tosa.reduce_max
// PREFIX: tosa.exp
// PREFIX: tosa.reduce_sum
// PREFIX: tosa.reciprocal
// PREFIX: tosa.matmul {{.*}} -> tensor<4x8x32xf32>

// WINDOW-LABEL: func.func @rock_attention
// WINDOW-SAME: (%{{.*}}: memref<32xf32>, %{{.*}}: memref<2048xf32>, %{{.*}}: memref<2048xf32>, %{{.*}}: memref<1xi32>, %{{.*}}: memref<32xf32>)
// WINDOW: rock.attention
// WINDOW-NEXT: qk = %{{.*}} * %{{.*}}
// WINDOW-NEXT: currentSeqLen = (%{{.*}} : memref<1xi32>)
// WINDOW-NEXT: slidingWindowSize = 16
// WINDOW-LABEL: func.func @host_naive_attention
// WINDOW: tosa.matmul
// WINDOW: tosa.greater
// WINDOW: tosa.select
// WINDOW: %[[LOW:.*]] = tosa.sub %{{.*}}, %{{.*}} : (tensor<1x1x1x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x1x1x64xi32>
// WINDOW: %[[LOW0:.*]] = tosa.maximum %[[LOW]], %{{.*}} : (tensor<1x1x1x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x1x1x64xi32>
// WINDOW: %[[M:.*]] = tosa.greater %[[LOW0]], %{{.*}} : (tensor<1x1x1x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x1x1x64xi1>
// WINDOW: tosa.select %[[M]], %{{.*}}, %{{.*}} : (tensor<1x1x1x64xi1>, tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
// WINDOW: tosa.reduce_max
// WINDOW: tosa.matmul

// SAFE-LABEL: func.func @host_naive_attention
// SAFE: %[[MAX:.*]] = tosa.reduce_max
// SAFE-NEXT: %[[LOWEST:.*]] = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
// SAFE-NEXT: %[[SMAX:.*]] = tosa.maximum %[[MAX]], %[[LOWEST]]
// SAFE-NEXT: %[[NORM:.*]] = tosa.sub %{{.*}}, %[[SMAX]]
// SAFE-NEXT: %[[EXP:.*]] = tosa.exp %[[NORM]]
// SAFE-NEXT: %[[SUM:.*]] = tosa.reduce_sum %[[EXP]]
// SAFE: %[[MAXL:.*]] = tosa.cast %[[MAX]]
// SAFE-NEXT: %[[LOG:.*]] = tosa.log
// SAFE-NEXT: tosa.add %[[LOG]], %[[MAXL]]
// SAFE-NEXT: %[[ONE:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
// SAFE-NEXT: %[[SSUM:.*]] = tosa.maximum %[[SUM]], %[[ONE]]
// SAFE-NEXT: tosa.reciprocal %[[SSUM]]
// SAFE: tosa.matmul

// DEFAULT-LABEL: func.func @rock_attention(
// DEFAULT-SAME: memref<2xi32>
// DEFAULT: currentSeqLen = (%{{.*}} : memref<2xi32>)
// DEFAULT-NEXT: slidingWindowSize = 16
// DEFAULT-LABEL: func.func @main
// DEFAULT-COUNT-2: arith.constant 63 : i32
