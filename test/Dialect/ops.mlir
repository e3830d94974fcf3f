// RUN: rock-opt %s | rock-opt | FileCheck %s
// RUN: rock-opt %s --mlir-print-op-generic | rock-opt | FileCheck %s

// Round trip of every rock op and attribute (docs/dialect.md).

#t0 = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["b", "a"] at [1, 0]>]
    bounds = [4, 8] -> [8, 4]>
#t1 = #rock.transform_map<affine_map<(d0) -> (d0 - 1)>
    by [<Pad{1, 2} ["x"] at [0] -> ["x"] at [0]>]
    bounds = [11] -> [8]>
#t2 = #rock.transform_map<affine_map<(d0) -> (d0 + 2)>
    by [<Slice{2, 6} ["x"] at [0] -> ["x"] at [0]>]
    bounds = [4] -> [8]>
#t3 = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 16 + d1)>
    by [<Embed{16, 1} ["a", "b"] at [0, 1] -> ["raw"] at [0]>]
    bounds = [4, 16] -> [64]>
#t4 = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 32 + d1)>
    by [<Unmerge{2, 32} ["a", "b"] at [0, 1] -> ["raw"] at [0]>]
    bounds = [2, 32] -> [64]>
#t5 = #rock.transform_map<affine_map<(d0) -> (d0 floordiv 16, d0 mod 16)>
    by [<Merge{4, 16} ["m"] at [0] -> ["a", "b"] at [0, 1]>]
    bounds = [64] -> [4, 16]>
#t6 = #rock.transform_map<affine_map<(d0, d1) -> (d1)>
    by [<AddDim{3} ["e"] at [0] -> [] at []>,
        <PassThrough ["x"] at [1] -> ["x"] at [0]>]
    bounds = [3, 8] -> [8]>
#t7 = #rock.transform_map<affine_map<(d0) -> (0)>
    by [<Broadcast{1} ["b"] at [0] -> ["b"] at [0]>]
    bounds = [5] -> [1]>
#t8 = #rock.transform_map<affine_map<(d0) -> (d0, 2)>
    by [<PassThrough ["x"] at [0] -> ["x"] at [0]>,
        <ConstDim{2, 4} [] at [] -> ["c"] at [1]>]
    bounds = [8] -> [8, 4]>
#t9 = #rock.transform_map<affine_map<(d0, d1) -> (d1)>
    by [<AddDim{3} ["e"] at [0] -> [] at []>,
        <PassThrough ["x"] at [1] -> ["x"] at [0]>]
    bounds = [3, 11] -> [11]>
#t10 = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["p", "i"] at [0, 1] -> ["p", "i"] at [0, 1]>]
    bounds = [8, 16] -> [8, 16]>

// Every transform kind; printed as aliases before the module.
// CHECK-DAG: #[[PT:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #rock.transform_map<#[[PT]] by [<PassThrough ["a", "b"] at [0, 1] -> ["b", "a"] at [1, 0]>] bounds = [4, 8] -> [8, 4]>
// CHECK-DAG: #[[PAD:.*]] = affine_map<(d0) -> (d0 - 1)>
// CHECK-DAG: #rock.transform_map<#[[PAD]] by [<Pad{1, 2} ["x"] at [0] -> ["x"] at [0]>] bounds = [11] -> [8]>
// CHECK-DAG: #[[SL:.*]] = affine_map<(d0) -> (d0 + 2)>
// CHECK-DAG: #rock.transform_map<#[[SL]] by [<Slice{2, 6} ["x"] at [0] -> ["x"] at [0]>] bounds = [4] -> [8]>
// CHECK-DAG: #[[EMB:.*]] = affine_map<(d0, d1) -> (d0 * 16 + d1)>
// CHECK-DAG: #rock.transform_map<#[[EMB]] by [<Embed{16, 1} ["a", "b"] at [0, 1] -> ["raw"] at [0]>] bounds = [4, 16] -> [64]>
// CHECK-DAG: #[[UM:.*]] = affine_map<(d0, d1) -> (d0 * 32 + d1)>
// CHECK-DAG: #rock.transform_map<#[[UM]] by [<Unmerge{2, 32} ["a", "b"] at [0, 1] -> ["raw"] at [0]>] bounds = [2, 32] -> [64]>
// CHECK-DAG: #[[MG:.*]] = affine_map<(d0) -> (d0 floordiv 16, d0 mod 16)>
// CHECK-DAG: #rock.transform_map<#[[MG]] by [<Merge{4, 16} ["m"] at [0] -> ["a", "b"] at [0, 1]>] bounds = [64] -> [4, 16]>
// CHECK-DAG: #[[AD:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #rock.transform_map<#[[AD]] by [<AddDim{3} ["e"] at [0] -> [] at []>, <PassThrough ["x"] at [1] -> ["x"] at [0]>] bounds = [3, 8] -> [8]>
// CHECK-DAG: #[[BC:.*]] = affine_map<(d0) -> (0)>
// CHECK-DAG: #rock.transform_map<#[[BC]] by [<Broadcast{1} ["b"] at [0] -> ["b"] at [0]>] bounds = [5] -> [1]>
// CHECK-DAG: #[[CD:.*]] = affine_map<(d0) -> (d0, 2)>
// CHECK-DAG: #rock.transform_map<#[[CD]] by [<PassThrough ["x"] at [0] -> ["x"] at [0]>, <ConstDim{2, 4} [] at [] -> ["c"] at [1]>] bounds = [8] -> [8, 4]>
// CHECK-DAG: #rock.transform_map<#{{.*}} by [<PassThrough ["g", "p"] at [0, 1] -> ["g", "p"] at [0, 1]>, <Unmerge{4, 64} ["sp", "d"] at [2, 3] -> ["off"] at [2]>] bounds = [1, 4, 4, 64] -> [1, 4, 256]>
// CHECK-DAG: #rock.transform_map<#{{.*}} by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <Merge{4, 4} ["s"] at [1] -> ["p", "sp"] at [1, 2]>, <PassThrough ["d"] at [2] -> ["d"] at [3]>] bounds = [1, 16, 64] -> [1, 4, 4, 64]>

// CHECK-LABEL: func @transform_kinds
func.func @transform_kinds(%a: memref<8x4xf32>, %b: memref<8xf32>,
                           %c: memref<64xf32>, %d: memref<4x16xf32>,
                           %e: memref<1xf32>, %f: memref<8x4xf32>) {
  %0 = rock.transform %a by #t0 : memref<8x4xf32> to memref<4x8xf32>
  %1 = rock.transform %b by #t1 : memref<8xf32> to memref<11xf32>
  %2 = rock.transform %b by #t2 : memref<8xf32> to memref<4xf32>
  %3 = rock.transform %c by #t3 : memref<64xf32> to memref<4x16xf32>
  %4 = rock.transform %c by #t4 : memref<64xf32> to memref<2x32xf32>
  %5 = rock.transform %d by #t5 : memref<4x16xf32> to memref<64xf32>
  %6 = rock.transform %b by #t6 : memref<8xf32> to memref<3x8xf32>
  %7 = rock.transform %e by #t7 : memref<1xf32> to memref<5xf32>
  %8 = rock.transform %f by #t8 : memref<8x4xf32> to memref<8xf32>
  %9 = rock.transform %1 by #t9 : memref<11xf32> to memref<3x11xf32>
  // CHECK-COUNT-10: rock.transform %{{.*}} by #transform_map{{[0-9]*}} : memref<
  return
}

// Paged K/V: keys and keyAddresses are the same view of a rock.deref.
#kpage = #rock.transform_map<affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 64 + d3)>
  by [<PassThrough ["g", "p"] at [0, 1] -> ["g", "p"] at [0, 1]>,
      <Unmerge{4, 64} ["sp", "d"] at [2, 3] -> ["off"] at [2]>]
  bounds = [1, 4, 4, 64] -> [1, 4, 256]>
#kseq = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1 floordiv 4, d1 mod 4, d2)>
  by [<PassThrough ["g"] at [0] -> ["g"] at [0]>,
      <Merge{4, 4} ["s"] at [1] -> ["p", "sp"] at [1, 2]>,
      <PassThrough ["d"] at [2] -> ["d"] at [3]>]
  bounds = [1, 16, 64] -> [1, 4, 4, 64]>
#vt = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d2, d1)>
  by [<PassThrough ["g", "d", "s"] at [0, 1, 2] -> ["g", "d", "s"] at [0, 2, 1]>]
  bounds = [1, 32, 16] -> [1, 16, 32]>

// CHECK-LABEL: func @attention_all_clauses
func.func @attention_all_clauses(%q: memref<2x64x8xf16>,
    %kptrs: memref<1x4x1xi64>, %vptrs: memref<1x16x1xi64>,
    %csl: memref<2xi32>, %po: memref<1xi32>,
    %scale: memref<2x8x16xf16>, %bias: memref<2x8x16xf16>,
    %out: memref<4x32x8xf16>, %lse: memref<4x8xf32>) {
  // CHECK: rock.deref %{{.*}} : memref<1x4x1xi64> -> memref<1x4x256xf16>
  %kd = rock.deref %kptrs : memref<1x4x1xi64> -> memref<1x4x256xf16>
  %k0 = rock.transform %kd by #kpage : memref<1x4x256xf16> to memref<1x4x4x64xf16>
  %k = rock.transform %k0 by #kseq : memref<1x4x4x64xf16> to memref<1x16x64xf16>
  %vd = rock.deref %vptrs : memref<1x16x1xi64> -> memref<1x16x32xf16>
  %v = rock.transform %vd by #vt : memref<1x16x32xf16> to memref<1x32x16xf16>
  // CHECK: rock.attention {
  // CHECK-NEXT: qk = tr %[[Q:.*]] * tr %[[K:.*]] : memref<2x64x8xf16>, memref<1x16x64xf16>
  // CHECK-NEXT: currentSeqLen = (%{{.*}} : memref<2xi32>)
  // CHECK-NEXT: slidingWindowSize = 64
  // CHECK-NEXT: prefixOffset = (%{{.*}} : memref<1xi32>)
  // CHECK-NEXT: keyAddresses = (%[[K]] : memref<1x16x64xf16>)
  // CHECK-NEXT: valueAddresses = (%[[V:.*]] : memref<1x32x16xf16>)
  // CHECK-NEXT: causalLookBack = 2
  // CHECK-NEXT: causal
  // CHECK-NEXT: lse = %{{.*}} : memref<4x8xf32>
  // CHECK-NEXT: qk = elementwise otherIns(%{{.*}}, %{{.*}} : memref<2x8x16xf16>, memref<2x8x16xf16>) {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: f16, %[[S:.*]]: f16, %[[B:.*]]: f16):
  // CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[S]] : f16
  // CHECK-NEXT: %[[R:.*]] = arith.addf %[[M]], %[[B]] : f16
  // CHECK-NEXT: rock.yield %[[R]] : f16
  // CHECK-NEXT: }
  // CHECK-NEXT: tr %{{.*}} = softmax(qk) * tr %[[V]] : memref<1x32x16xf16> -> memref<4x32x8xf16>
  // CHECK-NEXT: } {features = #rock<GemmFeatures dot|atomic_add|atomic_fmax_f32|wmma>, firstGemmIndices = array<i64: 0>, numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,0", preSoftmaxHasSplitKVTransforms = false, reverseGrid, softmaxType = f32, splitKV = 2 : i32, storeMethod = #rock<StoreMethod set>}
  rock.attention {
    qk = tr %q * tr %k : memref<2x64x8xf16>, memref<1x16x64xf16>
    currentSeqLen = (%csl : memref<2xi32>)
    prefixOffset = (%po : memref<1xi32>)
    keyAddresses = (%k : memref<1x16x64xf16>)
    valueAddresses = (%v : memref<1x32x16xf16>)
    causal
    lse = %lse : memref<4x8xf32>
    qk = elementwise otherIns(%scale, %bias : memref<2x8x16xf16>, memref<2x8x16xf16>) {
    ^bb0(%a: f16, %s: f16, %b: f16):
      %m = arith.mulf %a, %s : f16
      %r = arith.addf %m, %b : f16
      rock.yield %r : f16
    }
    tr %out = softmax(qk) * tr %v : memref<1x32x16xf16> -> memref<4x32x8xf16>
  } {features = #rock<GemmFeatures dot|atomic_add|atomic_fmax_f32|wmma>,
     firstGemmIndices = array<i64: 0>, numHeadsKV = 1 : i32, numHeadsQ = 2 : i32,
     perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,0", reverseGrid,
     slidingWindowSize = 64 : i32, causalLookBack = 2 : i32, softmaxType = f32, splitKV = 2 : i32,
     storeMethod = #rock<StoreMethod set>}
  return
}

// rocmlir-gen's spellings: keyAddresses / valueAddresses name the rock.deref
// results themselves, and slidingWindowSize and causalLookBack are clauses;
// both print back the same way.
// CHECK-LABEL: func @attention_upstream_form
func.func @attention_upstream_form(%q: memref<1x8x64xf16>,
    %kptrs: memref<1x4x1xi64>, %vptrs: memref<1x4x1xi64>,
    %csl: memref<1xi32>, %out: memref<1x8x64xf16>) {
  // CHECK: %[[KD:.*]] = rock.deref
  // CHECK: %[[VD:.*]] = rock.deref
  %kd = rock.deref %kptrs : memref<1x4x1xi64> -> memref<1x4x256xf16>
  %vd = rock.deref %vptrs : memref<1x4x1xi64> -> memref<1x4x256xf16>
  %k0 = rock.transform %kd by #kpage : memref<1x4x256xf16> to memref<1x4x4x64xf16>
  %k = rock.transform %k0 by #kseq : memref<1x4x4x64xf16> to memref<1x16x64xf16>
  %v0 = rock.transform %vd by #kpage : memref<1x4x256xf16> to memref<1x4x4x64xf16>
  %v = rock.transform %v0 by #kseq : memref<1x4x4x64xf16> to memref<1x16x64xf16>
  // CHECK: rock.attention {
  // CHECK-NEXT: qk = %{{.*}} * tr %{{.*}} : memref<1x8x64xf16>, memref<1x16x64xf16>
  // CHECK-NEXT: currentSeqLen = (%{{.*}} : memref<1xi32>)
  // CHECK-NEXT: slidingWindowSize = 4
  // CHECK-NEXT: keyAddresses = (%[[KD]] : memref<1x4x256xf16>)
  // CHECK-NEXT: valueAddresses = (%[[VD]] : memref<1x4x256xf16>)
  // CHECK-NEXT: causalLookBack = 3
  // CHECK-NEXT: causal
  // CHECK-NEXT: %{{.*}} = softmax(qk) * %{{.*}} : memref<1x16x64xf16> -> memref<1x8x64xf16>
  // CHECK-NEXT: } {firstGemmIndices
  // CHECK-NOT: slidingWindowSize
  // CHECK-NOT: causalLookBack
  // CHECK-SAME: }
  rock.attention {
    qk = %q * tr %k : memref<1x8x64xf16>, memref<1x16x64xf16>
    currentSeqLen = (%csl : memref<1xi32>)
    slidingWindowSize = 4
    keyAddresses = (%kd : memref<1x4x256xf16>)
    valueAddresses = (%vd : memref<1x4x256xf16>)
    causalLookBack = 3
    causal
    %out = softmax(qk) * %v : memref<1x16x64xf16> -> memref<1x8x64xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// The minimal form, with GQA and i8 inputs.
// CHECK-LABEL: func @attention_minimal_i8
func.func @attention_minimal_i8(%q: memref<4x8x16xi8>, %k: memref<2x16x32xi8>,
    %v: memref<2x32x8xf16>, %out: memref<4x8x8xf16>) {
  // CHECK: rock.attention {
  // CHECK-NEXT: qk = %{{.*}} * %{{.*}} : memref<4x8x16xi8>, memref<2x16x32xi8>
  // CHECK-NEXT: %{{.*}} = softmax(qk) * %{{.*}} : memref<2x32x8xf16> -> memref<4x8x8xf16>
  // CHECK-NEXT: } {firstGemmIndices = array<i64: 0>, numHeadsKV = 2 : i32, numHeadsQ = 4 : i32, perf_config = "attn:v2:64,64,64,16,64,32,1", preSoftmaxHasSplitKVTransforms = false, splitKV = 1 : i32, storeMethod = #rock<StoreMethod set>}
  rock.attention {
    qk = %q * %k : memref<4x8x16xi8>, memref<2x16x32xi8>
    %out = softmax(qk) * %v : memref<2x32x8xf16> -> memref<4x8x8xf16>
  } {numHeadsKV = 2 : i32, numHeadsQ = 4 : i32,
     perf_config = "attn:v2:64,64,64,16,64,32,1"}
  return
}

// numHeadsKV is optional (default 1), as upstream.
// CHECK-LABEL: func @attention_no_heads_kv
func.func @attention_no_heads_kv(%q: memref<4x8x16xf16>, %k: memref<1x16x32xf16>,
    %v: memref<1x32x8xf16>, %out: memref<4x8x8xf16>) {
  // CHECK: } {firstGemmIndices = array<i64: 0>, numHeadsKV = 1 : i32, numHeadsQ = 4 : i32,
  rock.attention {
    qk = %q * %k : memref<4x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<4x8x8xf16>
  } {numHeadsQ = 4 : i32}
  return
}

// CHECK-LABEL: func @gridwise
func.func @gridwise(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>,
    %v: memref<1x16x32xf16>, %scale: memref<2x8x16xf16>, %csl: memref<2xi32>,
    %po: memref<2xi32>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // CHECK: rock.gridwise_attention q(%{{.*}} : memref<2x8x64xf16>) k(%{{.*}} : memref<1x16x64xf16>) v(%{{.*}} : memref<1x16x32xf16>) elementwise(%{{.*}} : memref<2x8x16xf16>) currentSeqLen(%{{.*}} : memref<2xi32>) prefixOffset(%{{.*}} : memref<2xi32>) out(%{{.*}} : memref<4x8x32xf16>) lse(%{{.*}} : memref<4x8xf32>) attributes {causal, gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, reverseGrid, slidingWindowSize = 8 : i32, softmaxType = f32, splitKV = 2 : i32} {
  // CHECK-NEXT: ^bb0(%{{.*}}: f16, %{{.*}}: f16):
  // CHECK: rock.yield %{{.*}} : f16
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>)
      v(%v : memref<1x16x32xf16>) elementwise(%scale : memref<2x8x16xf16>)
      currentSeqLen(%csl : memref<2xi32>) prefixOffset(%po : memref<2xi32>)
      out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {causal, reverseGrid, splitKV = 2 : i32, numRepeatsGQA = 2 : i32,
                  prePadG0M = 16 : i64, prePadG0N = 16 : i64, mPerBlock = 16 : i32,
                  nPerBlock = 8 : i32, gridSize = 4 : i64, softmaxType = f32,
                  enableSoftmax = true, slidingWindowSize = 8 : i32} {
  ^bb0(%a: f16, %s: f16):
    %m = arith.mulf %a, %s : f16
    rock.yield %m : f16
  }
  return
}

// CHECK-LABEL: func @combine
func.func @combine(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>,
    %out: memref<2x8x32xf16>, %lse: memref<2x8xf32>,
    %pot: memref<6x32x8xf32>, %pl3: memref<6x8xf32>, %outt: memref<2x32x8xf32>) {
  // CHECK: rock.attention_combine %{{.*}}, %{{.*}} into %{{.*}}, %{{.*}} {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf16>, memref<2x8xf32>
  rock.attention_combine %po, %pl into %out, %lse {splitKV = 2 : i32}
      : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf16>, memref<2x8xf32>
  // CHECK: rock.attention_combine %{{.*}}, %{{.*}} into %{{.*}} {oTransposed, splitKV = 3 : i32} : memref<6x32x8xf32>, memref<6x8xf32> -> memref<2x32x8xf32>
  rock.attention_combine %pot, %pl3 into %outt {oTransposed, splitKV = 3 : i32}
      : memref<6x32x8xf32>, memref<6x8xf32> -> memref<2x32x8xf32>
  return
}

// CHECK-LABEL: func @views
func.func @views(%m: memref<4x8xf16>, %i: index, %j: index) {
  // CHECK: %[[S:.*]] = rock.view_load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x8xf16> -> f16
  %s = rock.view_load %m[%i, %j] : memref<4x8xf16> -> f16
  // CHECK: %[[V:.*]] = rock.view_load %{{.*}}[%{{.*}}, %{{.*}}] {padValue = 0xFFF0000000000000 : f64} : memref<4x8xf16> -> vector<8xf16>
  %v = rock.view_load %m[%i, %j] {padValue = 0xFFF0000000000000 : f64} : memref<4x8xf16> -> vector<8xf16>
  // CHECK: rock.view_store %[[S]], %{{.*}}[%{{.*}}, %{{.*}}] : f16, memref<4x8xf16>
  rock.view_store %s, %m[%i, %j] : f16, memref<4x8xf16>
  // CHECK: rock.view_store %[[V]], %{{.*}}[%{{.*}}, %{{.*}}] : vector<8xf16>, memref<4x8xf16>
  rock.view_store %v, %m[%i, %j] : vector<8xf16>, memref<4x8xf16>
  // The default locality (2) is elided.
  // CHECK: rock.view_prefetch %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x8xf16>
  rock.view_prefetch %m[%i, %j] : memref<4x8xf16>
  // CHECK: rock.view_prefetch %{{.*}}[%{{.*}}, %{{.*}}] {locality = 3 : i32} : memref<4x8xf16>
  rock.view_prefetch %m[%i, %j] {locality = 3 : i32} : memref<4x8xf16>
  return
}

// Paged vector access whose length divides the page size.
// CHECK-LABEL: func @paged_vector_load
func.func @paged_vector_load(%p: memref<8xi64>, %i: index, %j: index) {
  %d = rock.deref %p : memref<8xi64> -> memref<8x16xf16>
  %t = rock.transform %d by #t10 : memref<8x16xf16> to memref<8x16xf16>
  // CHECK: rock.view_load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x16xf16> -> vector<8xf16>
  %v = rock.view_load %t[%i, %j] : memref<8x16xf16> -> vector<8xf16>
  return
}

// A direct view_load / view_store on a rock.deref (a chain of zero
// transforms). A vector wider than 128 bits only needs pages that are a
// multiple of its 128-bit piece (f32: 4; page 100 here).
// CHECK-LABEL: func @paged_direct
func.func @paged_direct(%p: memref<1x8x1xi64>, %i: index, %x: f32) {
  // CHECK: %[[D:.*]] = rock.deref %{{.*}} : memref<1x8x1xi64> -> memref<1x8x100xf32>
  %d = rock.deref %p : memref<1x8x1xi64> -> memref<1x8x100xf32>
  // CHECK: rock.view_load %[[D]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<1x8x100xf32> -> vector<8xf32>
  %v = rock.view_load %d[%i, %i, %i] : memref<1x8x100xf32> -> vector<8xf32>
  // CHECK: rock.view_store %{{.*}}, %[[D]][%{{.*}}, %{{.*}}, %{{.*}}] : f32, memref<1x8x100xf32>
  rock.view_store %x, %d[%i, %i, %i] : f32, memref<1x8x100xf32>
  return
}

// The stored affine map may be any form computing the derived one, and
// preSoftmaxHasSplitKVTransforms = true is accepted (the lowering rejects it).
#horner = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0 * 32 + d1 * 8 + d2)>
  by [<Unmerge{2, 4, 8} ["a", "b", "c"] at [0, 1, 2] -> ["x"] at [0]>]
  bounds = [2, 4, 8] -> [64]>
// CHECK-LABEL: func @map_forms
func.func @map_forms(%m: memref<64xf16>, %q: memref<1x8x16xf16>,
    %k: memref<1x16x8xf16>, %v: memref<1x8x16xf16>, %out: memref<1x8x16xf16>) {
  // CHECK: rock.transform %{{.*}} by #{{.*}} : memref<64xf16> to memref<2x4x8xf16>
  %t = rock.transform %m by #horner : memref<64xf16> to memref<2x4x8xf16>
  // CHECK: preSoftmaxHasSplitKVTransforms = true
  rock.attention {
    qk = %q * %k : memref<1x8x16xf16>, memref<1x16x8xf16>
    %out = softmax(qk) * %v : memref<1x8x16xf16> -> memref<1x8x16xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, preSoftmaxHasSplitKVTransforms = true}
  return
}

// rocMLIR's linalg form of the pre-softmax region (support/region_form.h):
// the score tile, the inputs and the output tile as memrefs, one
// linalg.generic, then rock.yield; the generic may write the output directly
// or through an alloc copied into it.
// CHECK-LABEL: func @attention_region_linalg
func.func @attention_region_linalg(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>,
    %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // CHECK: qk = elementwise otherIns(%{{.*}} : memref<1x4x16xf16>) {
  // CHECK-NEXT: ^bb0(%[[QK:.*]]: memref<1x4x16xf16>, %[[S:.*]]: memref<1x4x16xf16>, %[[R:.*]]: memref<1x4x16xf16>):
  // CHECK-NEXT: linalg.generic {{.*}} ins(%[[QK]], %[[S]] : {{.*}}) outs(%[[R]] : memref<1x4x16xf16>)
  // CHECK: linalg.yield
  // CHECK: rock.yield{{$}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// CHECK-LABEL: func @attention_region_linalg_alloc
func.func @attention_region_linalg_alloc(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>,
    %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // CHECK: memref.alloc
  // CHECK: linalg.generic
  // CHECK: memref.copy
  // CHECK-NEXT: rock.yield{{$}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      %t = memref.alloc() : memref<1x4x16xf16>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sc, %qk : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%t : memref<1x4x16xf16>) {
      ^bb0(%b: f16, %a: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      memref.copy %t, %res : memref<1x4x16xf16> to memref<1x4x16xf16>
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}
