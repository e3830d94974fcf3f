// rocmlir-gen's @rock_attention shape for grouped-query heads and the KV
// cache, in the form of rocMLIR's test/rocmlir-gen expectations (a GPU
// target's function attributes are rocmlir-gen's): the flat arguments'
// views in argument order, then
// currentSeqLen [G] -> [G, 1] -> [G, Hq] -> [G*Hq]; K / V keep their Bkv
// heads and the op its numHeadsKV, as current rocmlir-gen (older versions
// broadcast K / V to every query head with a KV cache and more than one
// query row; rock-attention-to-gridwise-head-broadcast.mlir reads that form).
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=GQA_SCALE
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -current_seq_len=33 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=KV_SCALE
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -current_seq_len=33 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | FileCheck %s --enable-var-scope --check-prefixes=KV_NO_SCALE
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -current_seq_len=33 -return_lse -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=KV_LSE
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -current_seq_len=33 -return_lse -split_kv 8 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=KV_SPLIT
// The current flag name of the index gives the same IR.
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -last_valid_kv_index=33 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv | FileCheck %s --enable-var-scope --check-prefixes=KV_NO_SCALE

// GQA_SCALE-LABEL: func.func @rock_attention
// GQA_SCALE-SAME: (%[[queriesRaw:.*0]]: memref<131072xf32>,
// GQA_SCALE-SAME: %[[keysRaw:.*1]]: memref<65536xf32>,
// GQA_SCALE-SAME: %[[valuesRaw:.*2]]: memref<65536xf32>,
// GQA_SCALE-SAME: %[[scaleRaw:.*3]]: memref<4194304xf32>,
// GQA_SCALE-SAME: %[[outputRaw:.*4]]: memref<131072xf32>)
// GQA_SCALE-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel}
// GQA_SCALE-NEXT: %[[queries:.*]] = rock.transform %[[queriesRaw]] {{.*}} : memref<131072xf32> to memref<4x1024x32xf32>
// GQA_SCALE-NEXT: %[[keys:.*]] = rock.transform %[[keysRaw]] {{.*}} : memref<65536xf32> to memref<2x32x1024xf32>
// GQA_SCALE-NEXT: %[[values:.*]] = rock.transform %[[valuesRaw]] {{.*}} : memref<65536xf32> to memref<2x1024x32xf32>
// GQA_SCALE-NEXT: %[[scale:.*]] = rock.transform %[[scaleRaw]] {{.*}} : memref<4194304xf32> to memref<4x1024x1024xf32>
// GQA_SCALE-NEXT: %[[output:.*]] = rock.transform %[[outputRaw]] {{.*}} : memref<131072xf32> to memref<4x1024x32xf32>
// GQA_SCALE-NEXT: rock.attention
// GQA_SCALE-NEXT: qk = %[[queries]] * %[[keys]]
// GQA_SCALE-NEXT: qk = elementwise otherIns(%[[scale]]
// GQA_SCALE: %[[output]] = softmax(qk) * %[[values]]
// GQA_SCALE-NEXT: numHeadsKV = 2 : i32, numHeadsQ = 4 : i32
// GQA_SCALE: return

// KV_SCALE-LABEL: func.func @rock_attention
// KV_SCALE-SAME: (%[[queriesRaw:.*0]]: memref<131072xf32>,
// KV_SCALE-SAME: %[[keysRaw:.*1]]: memref<65536xf32>,
// KV_SCALE-SAME: %[[valuesRaw:.*2]]: memref<65536xf32>,
// KV_SCALE-SAME: %[[scaleRaw:.*3]]: memref<4194304xf32>,
// KV_SCALE-SAME: %[[currentSeqLenRaw:.*4]]: memref<1xi32>,
// KV_SCALE-SAME: %[[outputRaw:.*5]]: memref<131072xf32>)
// KV_SCALE-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel}
// KV_SCALE-NEXT: %[[queries:.*]] = rock.transform %[[queriesRaw]] {{.*}} : memref<131072xf32> to memref<4x1024x32xf32>
// KV_SCALE-NEXT: %[[keys:.*]] = rock.transform %[[keysRaw]] {{.*}} : memref<65536xf32> to memref<2x32x1024xf32>
// KV_SCALE-NEXT: %[[values:.*]] = rock.transform %[[valuesRaw]] {{.*}} : memref<65536xf32> to memref<2x1024x32xf32>
// KV_SCALE-NEXT: %[[scale:.*]] = rock.transform %[[scaleRaw]] {{.*}} : memref<4194304xf32> to memref<4x1024x1024xf32>
// KV_SCALE-NEXT: %[[currentSeqLen:.*]] = rock.transform %[[currentSeqLenRaw]] {{.*}} : memref<1xi32> to memref<1xi32>
// KV_SCALE-NEXT: %[[output:.*]] = rock.transform %[[outputRaw]] {{.*}} : memref<131072xf32> to memref<4x1024x32xf32>
// KV_SCALE-NEXT: %[[currentSeqLenAddDim:.*]] = rock.transform %[[currentSeqLen]] {{.*}} : memref<1xi32> to memref<1x1xi32>
// KV_SCALE-NEXT: %[[currentSeqLenBroadcast:.*]] = rock.transform %[[currentSeqLenAddDim]] {{.*}} : memref<1x1xi32> to memref<1x4xi32>
// KV_SCALE-NEXT: %[[currentSeqLenMerge:.*]] = rock.transform %[[currentSeqLenBroadcast]] {{.*}} : memref<1x4xi32> to memref<4xi32>
// KV_SCALE-NEXT: rock.attention
// KV_SCALE-NEXT: qk = %[[queries]] * %[[keys]]
// KV_SCALE-NEXT: currentSeqLen = (%[[currentSeqLenMerge]] : memref<4xi32>)
// KV_SCALE-NEXT: qk = elementwise otherIns(%[[scale]]
// KV_SCALE: %[[output]] = softmax(qk) * %[[values]]
// KV_SCALE-NEXT: numHeadsKV = 2 : i32, numHeadsQ = 4 : i32
// KV_SCALE: return

// KV_NO_SCALE-LABEL: func.func @rock_attention
// KV_NO_SCALE-SAME: (%[[queriesRaw:.*0]]: memref<131072xf32>,
// KV_NO_SCALE-SAME: %[[keysRaw:.*1]]: memref<65536xf32>,
// KV_NO_SCALE-SAME: %[[valuesRaw:.*2]]: memref<65536xf32>,
// KV_NO_SCALE-SAME: %[[currentSeqLenRaw:.*3]]: memref<1xi32>,
// KV_NO_SCALE-SAME: %[[outputRaw:.*4]]: memref<131072xf32>)
// KV_NO_SCALE-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel}
// KV_NO_SCALE-NEXT: %[[queries:.*]] = rock.transform %[[queriesRaw]] {{.*}} : memref<131072xf32> to memref<4x1024x32xf32>
// KV_NO_SCALE-NEXT: %[[keys:.*]] = rock.transform %[[keysRaw]] {{.*}} : memref<65536xf32> to memref<2x32x1024xf32>
// KV_NO_SCALE-NEXT: %[[values:.*]] = rock.transform %[[valuesRaw]] {{.*}} : memref<65536xf32> to memref<2x1024x32xf32>
// KV_NO_SCALE-NEXT: %[[currentSeqLen:.*]] = rock.transform %[[currentSeqLenRaw]] {{.*}} : memref<1xi32> to memref<1xi32>
// KV_NO_SCALE-NEXT: %[[output:.*]] = rock.transform %[[outputRaw]] {{.*}} : memref<131072xf32> to memref<4x1024x32xf32>
// KV_NO_SCALE-NEXT: %[[currentSeqLenAddDim:.*]] = rock.transform %[[currentSeqLen]] {{.*}} : memref<1xi32> to memref<1x1xi32>
// KV_NO_SCALE-NEXT: %[[currentSeqLenBroadcast:.*]] = rock.transform %[[currentSeqLenAddDim]] {{.*}} : memref<1x1xi32> to memref<1x4xi32>
// KV_NO_SCALE-NEXT: %[[currentSeqLenMerge:.*]] = rock.transform %[[currentSeqLenBroadcast]] {{.*}} : memref<1x4xi32> to memref<4xi32>
// KV_NO_SCALE-NEXT: rock.attention
// KV_NO_SCALE-NEXT: qk = %[[queries]] * %[[keys]]
// KV_NO_SCALE-NEXT: currentSeqLen = (%[[currentSeqLenMerge]] : memref<4xi32>)
// KV_NO_SCALE: %[[output]] = softmax(qk) * %[[values]]
// KV_NO_SCALE: return

// KV_LSE-LABEL: func.func @rock_attention
// KV_LSE-SAME: (%[[queriesRaw:.*0]]: memref<131072xf32>,
// KV_LSE-SAME: %[[keysRaw:.*1]]: memref<65536xf32>,
// KV_LSE-SAME: %[[valuesRaw:.*2]]: memref<65536xf32>,
// KV_LSE-SAME: %[[currentSeqLenRaw:.*3]]: memref<1xi32>,
// KV_LSE-SAME: %[[lseRaw:.*4]]: memref<4096xf32>,
// KV_LSE-SAME: %[[outputRaw:.*5]]: memref<131072xf32>)
// KV_LSE-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel}
// KV_LSE-NEXT: %[[queries:.*]] = rock.transform %[[queriesRaw]] {{.*}} : memref<131072xf32> to memref<4x1024x32xf32>
// KV_LSE-NEXT: %[[keys:.*]] = rock.transform %[[keysRaw]] {{.*}} : memref<65536xf32> to memref<2x32x1024xf32>
// KV_LSE-NEXT: %[[values:.*]] = rock.transform %[[valuesRaw]] {{.*}} : memref<65536xf32> to memref<2x1024x32xf32>
// KV_LSE-NEXT: %[[currentSeqLen:.*]] = rock.transform %[[currentSeqLenRaw]] {{.*}} : memref<1xi32> to memref<1xi32>
// KV_LSE-NEXT: %[[lse:.*]] = rock.transform %[[lseRaw]] {{.*}} : memref<4096xf32> to memref<4x1024xf32>
// KV_LSE-NEXT: %[[output:.*]] = rock.transform %[[outputRaw]] {{.*}} : memref<131072xf32> to memref<4x1024x32xf32>
// KV_LSE-NEXT: %[[currentSeqLenAddDim:.*]] = rock.transform %[[currentSeqLen]] {{.*}} : memref<1xi32> to memref<1x1xi32>
// KV_LSE-NEXT: %[[currentSeqLenBroadcast:.*]] = rock.transform %[[currentSeqLenAddDim]] {{.*}} : memref<1x1xi32> to memref<1x4xi32>
// KV_LSE-NEXT: %[[currentSeqLenMerge:.*]] = rock.transform %[[currentSeqLenBroadcast]] {{.*}} : memref<1x4xi32> to memref<4xi32>
// KV_LSE-NEXT: rock.attention
// KV_LSE-NEXT: qk = %[[queries]] * %[[keys]]
// KV_LSE-NEXT: currentSeqLen = (%[[currentSeqLenMerge]] : memref<4xi32>)
// KV_LSE-NEXT: lse = %[[lse]] : memref<4x1024xf32>
// KV_LSE: %[[output]] = softmax(qk) * %[[values]]
// KV_LSE: return

// KV_SPLIT-LABEL: func.func @rock_attention
// KV_SPLIT-SAME: (%[[queriesRaw:.*0]]: memref<128xf32>,
// KV_SPLIT-SAME: %[[keysRaw:.*1]]: memref<65536xf32>,
// KV_SPLIT-SAME: %[[valuesRaw:.*2]]: memref<65536xf32>,
// KV_SPLIT-SAME: %[[currentSeqLenRaw:.*3]]: memref<1xi32>,
// KV_SPLIT-SAME: %[[lseRaw:.*4]]: memref<32xf32>,
// KV_SPLIT-SAME: %[[outputRaw:.*5]]: memref<1024xf32>)
// KV_SPLIT-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel}
// KV_SPLIT-NEXT: %[[queries:.*]] = rock.transform %[[queriesRaw]] {{.*}} : memref<128xf32> to memref<4x1x32xf32>
// KV_SPLIT-NEXT: %[[keys:.*]] = rock.transform %[[keysRaw]] {{.*}} : memref<65536xf32> to memref<2x32x1024xf32>
// KV_SPLIT-NEXT: %[[values:.*]] = rock.transform %[[valuesRaw]] {{.*}} : memref<65536xf32> to memref<2x1024x32xf32>
// KV_SPLIT-NEXT: %[[currentSeqLen:.*]] = rock.transform %[[currentSeqLenRaw]] {{.*}} : memref<1xi32> to memref<1xi32>
// KV_SPLIT-NEXT: %[[lse:.*]] = rock.transform %[[lseRaw]] {{.*}} : memref<32xf32> to memref<32x1xf32>
// KV_SPLIT-NEXT: %[[output:.*]] = rock.transform %[[outputRaw]] {{.*}} : memref<1024xf32> to memref<32x1x32xf32>
// KV_SPLIT-NEXT: %[[currentSeqLenAddDim:.*]] = rock.transform %[[currentSeqLen]] {{.*}} : memref<1xi32> to memref<1x1xi32>
// KV_SPLIT-NEXT: %[[currentSeqLenBroadcast:.*]] = rock.transform %[[currentSeqLenAddDim]] {{.*}} : memref<1x1xi32> to memref<1x4xi32>
// KV_SPLIT-NEXT: %[[currentSeqLenMerge:.*]] = rock.transform %[[currentSeqLenBroadcast]] {{.*}} : memref<1x4xi32> to memref<4xi32>
// KV_SPLIT-NEXT: rock.attention
// KV_SPLIT-NEXT: qk = %[[queries]] * %[[keys]]
// KV_SPLIT-NEXT: currentSeqLen = (%[[currentSeqLenMerge]] : memref<4xi32>)
// KV_SPLIT-NEXT: lse = %[[lse]] : memref<32x1xf32>
// KV_SPLIT: %[[output]] = softmax(qk) * %[[values]]
// KV_SPLIT-NEXT: numHeadsKV = 2 : i32, numHeadsQ = 4 : i32
// KV_SPLIT-SAME: splitKV = 8 : i32
// KV_SPLIT: return
