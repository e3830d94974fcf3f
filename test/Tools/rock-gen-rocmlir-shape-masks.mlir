// rocmlir-gen's @rock_attention shape for prefix-causal masks and sliding
// windows, in the form of rocMLIR's test/rocmlir-gen expectations (a GPU target's
// function attributes are rocmlir-gen's): prefixOffset [G] -> [G*Hq] as currentSeqLen is;
// slidingWindowSize is a clause after currentSeqLen; without an index,
// rock-gen passes one per group; causalLookBack is a clause before causal.
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -prefix_offset=5 --causal -num_heads_q 4 -num_heads_kv 4 -seq_len_q 8 -seq_len_k 16 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefix=PREFIX
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -current_seq_len=33 -sliding_window_size=16 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefix=WINDOW
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -causal -causal_look_back=32 -seq_len_q 128 -seq_len_k 128 -head_dim_qk 32 -head_dim_v 32 -t f16 --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --check-prefix=BAND
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -g 2 -sliding_window_size=16 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --check-prefix=DEFAULT-CURRENT-SEQ-LEN

// PREFIX-LABEL: func.func @rock_attention
// PREFIX-SAME: (%[[queriesRaw:.*0]]: memref<1024xf32>,
// PREFIX-SAME: %[[keysRaw:.*1]]: memref<2048xf32>,
// PREFIX-SAME: %[[valuesRaw:.*2]]: memref<2048xf32>,
// PREFIX-SAME: %[[prefixOffsetRaw:.*3]]: memref<1xi32>,
// PREFIX-SAME: %[[outputRaw:.*4]]: memref<1024xf32>)
// PREFIX-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel}
// PREFIX: %[[queries:.*]] = rock.transform %[[queriesRaw]] {{.*}} : memref<1024xf32> to memref<4x8x32xf32>
// PREFIX: %[[keys:.*]] = rock.transform %[[keysRaw]] {{.*}} : memref<2048xf32> to memref<4x32x16xf32>
// PREFIX: %[[values:.*]] = rock.transform %[[valuesRaw]] {{.*}} : memref<2048xf32> to memref<4x16x32xf32>
// PREFIX: %[[prefixOffset:.*]] = rock.transform %[[prefixOffsetRaw]] {{.*}} : memref<1xi32> to memref<1xi32>
// PREFIX: %[[output:.*]] = rock.transform %[[outputRaw]] {{.*}} : memref<1024xf32> to memref<4x8x32xf32>
// PREFIX-NEXT: %[[prefixOffsetAddDim:.*]] = rock.transform %[[prefixOffset]] {{.*}} : memref<1xi32> to memref<1x1xi32>
// PREFIX-NEXT: %[[prefixOffsetBroadcast:.*]] = rock.transform %[[prefixOffsetAddDim]] {{.*}} : memref<1x1xi32> to memref<1x4xi32>
// PREFIX-NEXT: %[[prefixOffsetMerge:.*]] = rock.transform %[[prefixOffsetBroadcast]] {{.*}} : memref<1x4xi32> to memref<4xi32>
// PREFIX: rock.attention
// PREFIX: qk = %[[queries]] * %[[keys]]
// PREFIX: prefixOffset = (%[[prefixOffsetMerge]] : memref<4xi32>)
// PREFIX: causal
// PREFIX: %[[output]] = softmax(qk) * %[[values]]
// PREFIX: return

// WINDOW-LABEL: func.func @rock_attention
// WINDOW-SAME: (%[[queriesRaw:.*0]]: memref<32xf32>,
// WINDOW-SAME: %[[keysRaw:.*1]]: memref<2048xf32>,
// WINDOW-SAME: %[[valuesRaw:.*2]]: memref<2048xf32>,
// WINDOW-SAME: %[[currentSeqLenRaw:.*3]]: memref<1xi32>,
// WINDOW-SAME: %[[outputRaw:.*4]]: memref<32xf32>)
// WINDOW-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel}
// WINDOW: rock.attention
// WINDOW-NEXT: qk = %{{.*}} * %{{.*}}
// WINDOW-NEXT: currentSeqLen = (%{{.*}} : memref<1xi32>)
// WINDOW-NEXT: slidingWindowSize = 16
// WINDOW: softmax(qk) * %{{.*}}
// WINDOW: return

// DEFAULT-CURRENT-SEQ-LEN-LABEL: func.func @rock_attention(
// DEFAULT-CURRENT-SEQ-LEN-SAME: memref<2xi32>
// DEFAULT-CURRENT-SEQ-LEN: currentSeqLen = (%{{.*}} : memref<2xi32>)
// DEFAULT-CURRENT-SEQ-LEN-NEXT: slidingWindowSize = 16

// BAND-LABEL: func.func @rock_attention
// BAND: rock.attention
// BAND-NEXT: qk = %{{.*}} * %{{.*}}
// BAND-NEXT: causalLookBack = 32
// BAND-NEXT: causal
// BAND: softmax(qk) * %{{.*}}
// BAND-NOT: causalLookBack
// BAND: return
