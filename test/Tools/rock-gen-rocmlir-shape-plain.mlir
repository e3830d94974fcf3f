// rocmlir-gen's @rock_attention shape, written in the form of rocMLIR's own
// test/rocmlir-gen expectations (GPU targets get
// rocmlir-gen's `{mhal.arch = ..., rock.kernel}`, the CPU keeps rock's
// llvm.emit_c_interface): one view per flat argument, in argument
// order, then the op. Plain, scaled (f32, f16) and causal attention.
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=CHECK_SCALE
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=CHECK_NO_SCALE
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f16 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=F16
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -causal -seq_len_q 512 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f32 -pv --apply-bufferization-pipeline=false | FileCheck %s --enable-var-scope --check-prefixes=CAUSAL

// CHECK_SCALE-LABEL: func.func @rock_attention
// CHECK_SCALE-SAME: (%[[queriesRaw:.*0]]: memref<32768xf32>,
// CHECK_SCALE-SAME: %[[keysRaw:.*1]]: memref<32768xf32>,
// CHECK_SCALE-SAME: %[[valuesRaw:.*2]]: memref<32768xf32>,
// CHECK_SCALE-SAME: %[[scaleRaw:.*3]]: memref<1048576xf32>,
// CHECK_SCALE-SAME: %[[outputRaw:.*4]]: memref<32768xf32>)
// CHECK_SCALE-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel}
// CHECK_SCALE-NEXT: %[[queries:.*]] = rock.transform %[[queriesRaw]] {{.*}} : memref<32768xf32> to memref<1x1024x32xf32>
// CHECK_SCALE-NEXT: %[[keys:.*]] = rock.transform %[[keysRaw]] {{.*}} : memref<32768xf32> to memref<1x32x1024xf32>
// CHECK_SCALE-NEXT: %[[values:.*]] = rock.transform %[[valuesRaw]] {{.*}} : memref<32768xf32> to memref<1x1024x32xf32>
// CHECK_SCALE-NEXT: %[[scale:.*]] = rock.transform %[[scaleRaw]] {{.*}} : memref<1048576xf32> to memref<1x1024x1024xf32>
// CHECK_SCALE-NEXT: %[[output:.*]] = rock.transform %[[outputRaw]] {{.*}} : memref<32768xf32> to memref<1x1024x32xf32>
// CHECK_SCALE-NEXT: rock.attention
// CHECK_SCALE-NEXT: qk = %[[queries]] * %[[keys]]
// CHECK_SCALE-NEXT: qk = elementwise otherIns(%[[scale]]
// CHECK_SCALE: %[[output]] = softmax(qk) * %[[values]]
// CHECK_SCALE: return

// CHECK_NO_SCALE-LABEL: func.func @rock_attention
// CHECK_NO_SCALE-SAME: (%[[queriesRaw:.*0]]: memref<32768xf32>,
// CHECK_NO_SCALE-SAME: %[[keysRaw:.*1]]: memref<32768xf32>,
// CHECK_NO_SCALE-SAME: %[[valuesRaw:.*2]]: memref<32768xf32>,
// CHECK_NO_SCALE-SAME: %[[outputRaw:.*3]]: memref<32768xf32>)
// CHECK_NO_SCALE-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel}
// CHECK_NO_SCALE-NEXT: %[[queries:.*]] = rock.transform %[[queriesRaw]] {{.*}} : memref<32768xf32> to memref<1x1024x32xf32>
// CHECK_NO_SCALE-NEXT: %[[keys:.*]] = rock.transform %[[keysRaw]] {{.*}} : memref<32768xf32> to memref<1x32x1024xf32>
// CHECK_NO_SCALE-NEXT: %[[values:.*]] = rock.transform %[[valuesRaw]] {{.*}} : memref<32768xf32> to memref<1x1024x32xf32>
// CHECK_NO_SCALE-NEXT: %[[output:.*]] = rock.transform %[[outputRaw]] {{.*}} : memref<32768xf32> to memref<1x1024x32xf32>
// CHECK_NO_SCALE-NEXT: rock.attention
// CHECK_NO_SCALE-NEXT: qk = %[[queries]] * %[[keys]]
// CHECK_NO_SCALE-NEXT: %[[output]] = softmax(qk) * %[[values]]
// CHECK_NO_SCALE: return

// CAUSAL-LABEL: func.func @rock_attention
// CAUSAL-SAME: (%[[queriesRaw:.*0]]: memref<16384xf32>,
// CAUSAL-SAME: %[[keysRaw:.*1]]: memref<32768xf32>,
// CAUSAL-SAME: %[[valuesRaw:.*2]]: memref<32768xf32>,
// CAUSAL-SAME: %[[scaleRaw:.*3]]: memref<524288xf32>,
// CAUSAL-SAME: %[[outputRaw:.*4]]: memref<16384xf32>)
// CAUSAL-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel}
// CAUSAL-NEXT: %[[queries:.*]] = rock.transform %[[queriesRaw]] {{.*}} : memref<16384xf32> to memref<1x512x32xf32>
// CAUSAL-NEXT: %[[keys:.*]] = rock.transform %[[keysRaw]] {{.*}} : memref<32768xf32> to memref<1x32x1024xf32>
// CAUSAL-NEXT: %[[values:.*]] = rock.transform %[[valuesRaw]] {{.*}} : memref<32768xf32> to memref<1x1024x32xf32>
// CAUSAL-NEXT: %[[scale:.*]] = rock.transform %[[scaleRaw]] {{.*}} : memref<524288xf32> to memref<1x512x1024xf32>
// CAUSAL-NEXT: %[[output:.*]] = rock.transform %[[outputRaw]] {{.*}} : memref<16384xf32> to memref<1x512x32xf32>
// CAUSAL-NEXT: rock.attention
// CAUSAL-NEXT: qk = %[[queries]] * %[[keys]]
// CAUSAL-NEXT: causal
// CAUSAL-NEXT: qk = elementwise otherIns(%[[scale]]
// CAUSAL: %[[output]] = softmax(qk) * %[[values]]
// CAUSAL: return

// F16-LABEL: func.func @rock_attention
// F16-SAME: (%[[queriesRaw:.*0]]: memref<32768xf16>,
// F16-SAME: %[[keysRaw:.*1]]: memref<32768xf16>,
// F16-SAME: %[[valuesRaw:.*2]]: memref<32768xf16>,
// F16-SAME: %[[scaleRaw:.*3]]: memref<1048576xf16>,
// F16-SAME: %[[outputRaw:.*4]]: memref<32768xf16>)
// F16-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel}
// F16-NEXT: %[[queries:.*]] = rock.transform %[[queriesRaw]] {{.*}} : memref<32768xf16> to memref<1x1024x32xf16>
// F16-NEXT: %[[keys:.*]] = rock.transform %[[keysRaw]] {{.*}} : memref<32768xf16> to memref<1x32x1024xf16>
// F16-NEXT: %[[values:.*]] = rock.transform %[[valuesRaw]] {{.*}} : memref<32768xf16> to memref<1x1024x32xf16>
// F16-NEXT: %[[scale:.*]] = rock.transform %[[scaleRaw]] {{.*}} : memref<1048576xf16> to memref<1x1024x1024xf16>
// F16-NEXT: %[[output:.*]] = rock.transform %[[outputRaw]] {{.*}} : memref<32768xf16> to memref<1x1024x32xf16>
// F16-NEXT: rock.attention
// F16-NEXT: qk = %[[queries]] * %[[keys]]
// F16-NEXT: qk = elementwise otherIns(%[[scale]]
// F16: %[[output]] = softmax(qk) * %[[values]]
// F16: return
