// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention)' | FileCheck %s
// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention,rock-lower-views)' | FileCheck %s --check-prefix=VIEWS

// VIEWS-NOT: rock.gridwise_attention
// VIEWS-NOT: rock.view_load
// VIEWS-NOT: rock.view_store

// Internal split (docs/internals.md): rock.num_threads = 8, gridSize 1,
// splitKV 1, 64 key tiles: P = 8 partitions write f32 partial outputs
// [B*P, Sq, Dv] and f64 partial LSEs [B*P, Sq] to scratch (f64: m + ln l
// is not rounded to f32, so the weights keep f32 accuracy), the workgroup
// loop runs over 8, and the combine (rock-lower-combine's merge, 8 splits;
// the LSE differences in f64) writes the bf16 out and the LSE; the scratch
// is freed after.
// CHECK-LABEL: func.func @split8
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[PO:.*]] = memref.alloc() {{.*}} : memref<64x1x128xf32>
// CHECK: %[[PL:.*]] = memref.alloc() {{.*}} : memref<64x1xf64>
// CHECK: scf.parallel (%[[BID:.*]]) = (%[[C0]]) to (%[[C8]]) step (%[[C1]])
// CHECK: %[[SPLIT:.*]] = arith.remui %[[BID]], %[[C8]] : index
// CHECK: rock.view_store %{{.*}}, %[[PO]][%{{.*}}] : vector<{{.*}}xf32>, memref<64x1x128xf32>
// CHECK: rock.view_store %{{.*}}, %[[PL]][%{{.*}}] : f64, memref<64x1xf64>
// CHECK: scf.parallel (%[[B:.*]], %[[I:.*]]) =
// The combine loops over the 8 splits: one loop for the max, one for the
// weights, each reading the partial LSE once.
// CHECK: %[[R0:.*]] = arith.muli %[[B]], %[[CS:.*]] : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[CS]] step
// CHECK-COUNT-2: rock.view_load %[[PL]][%{{.*}}, %[[I]]] : memref<64x1xf64> -> f64
// CHECK-NOT: rock.view_load %[[PL]]
// CHECK: rock.view_load %[[PO]][%{{.*}}, %[[I]], %{{.*}}] : memref<64x1x128xf32> -> f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: rock.view_store %{{.*}}, %arg3[%[[B]], %[[I]], %{{.*}}] : bf16, memref<8x1x128xbf16>
// CHECK: math.log
// CHECK: arith.addf %{{.*}}, %{{.*}} : f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: rock.view_store %{{.*}}, %arg4[%[[B]], %[[I]]] : f32, memref<8x1xf32>
// CHECK: memref.dealloc %[[PO]] : memref<64x1x128xf32>
// CHECK: memref.dealloc %[[PL]] : memref<64x1xf64>
// CHECK-NOT: rock.gridwise_attention
module attributes {rock.num_threads = 8 : i64} {
func.func @split8(%q: memref<8x1x128xbf16>, %k: memref<1x4096x128xbf16>,
    %v: memref<1x4096x128xbf16>, %out: memref<8x1x128xbf16>,
    %lse: memref<8x1xf32>) {
  rock.gridwise_attention q(%q : memref<8x1x128xbf16>)
      k(%k : memref<1x4096x128xbf16>) v(%v : memref<1x4096x128xbf16>)
      out(%out : memref<8x1x128xbf16>) lse(%lse : memref<8x1xf32>)
      attributes {splitKV = 1 : i32, numRepeatsGQA = 8 : i32,
                  prePadG0M = 4096 : i64, prePadG0N = 8 : i64,
                  mPerBlock = 64 : i32, nPerBlock = 8 : i32,
                  gridSize = 1 : i64, softmaxType = f32} {
  }
  return
}
}

// -----

// Without rock.num_threads nothing changes: one workgroup writing out.
// CHECK-LABEL: func.func @no_threads
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NOT: memref.alloc() {{.*}} : memref<{{[0-9]+}}x1x128xf32>
// CHECK: scf.parallel (%{{.*}}) = (%[[C0]]) to (%[[C1]]) step (%[[C1]])
// CHECK-NOT: memref.alloc() {{.*}} : memref<{{[0-9]+}}x1x128xf32>
// CHECK: rock.view_store %{{.*}}, %arg3[
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @no_threads(%q: memref<8x1x128xf32>, %k: memref<1x4096x128xf32>,
    %v: memref<1x4096x128xf32>, %out: memref<8x1x128xf32>) {
  rock.gridwise_attention q(%q : memref<8x1x128xf32>)
      k(%k : memref<1x4096x128xf32>) v(%v : memref<1x4096x128xf32>)
      out(%out : memref<8x1x128xf32>)
      attributes {splitKV = 1 : i32, numRepeatsGQA = 8 : i32,
                  prePadG0M = 4096 : i64, prePadG0N = 8 : i64,
                  mPerBlock = 64 : i32, nPerBlock = 8 : i32,
                  gridSize = 1 : i64, softmaxType = f32} {
  }
  return
}

// -----

// A user split (splitKV 2) is part of the signature: never re-split, the
// loop runs over gridSize 2 and stores straight to out.
// CHECK-LABEL: func.func @user_split
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NOT: memref.alloc() {{.*}} : memref<{{[0-9]+}}x1x128xf32>
// CHECK: scf.parallel (%{{.*}}) = (%[[C0]]) to (%[[C2]])
// CHECK: rock.view_store %{{.*}}, %arg3[
// CHECK-NOT: scf.parallel
// CHECK: return
module attributes {rock.num_threads = 8 : i64} {
func.func @user_split(%q: memref<8x1x128xf32>, %k: memref<1x4096x128xf32>,
    %v: memref<1x4096x128xf32>, %out: memref<16x1x128xf32>,
    %lse: memref<16x1xf32>) {
  rock.gridwise_attention q(%q : memref<8x1x128xf32>)
      k(%k : memref<1x4096x128xf32>) v(%v : memref<1x4096x128xf32>)
      out(%out : memref<16x1x128xf32>) lse(%lse : memref<16x1xf32>)
      attributes {splitKV = 2 : i32, numRepeatsGQA = 8 : i32,
                  prePadG0M = 4096 : i64, prePadG0N = 8 : i64,
                  mPerBlock = 64 : i32, nPerBlock = 8 : i32,
                  gridSize = 2 : i64, softmaxType = f32} {
  }
  return
}
}

// -----

// Short Sk (2 and 3 key tiles): every partition must keep 2 tiles, so 2
// tiles are never split and 3 tiles (attribute on the op) are not either;
// 4 tiles split in 2 although 8 threads are available.
// (Each op's constants are its own: no CSE here.)
// CHECK-LABEL: func.func @short
// CHECK-NOT: memref.alloc() {{.*}} : memref<{{[0-9]+}}x1x32xf32>
// CHECK: scf.parallel (%{{.*}}) = (%c0{{.*}}) to (%c1{{(_[0-9]+)?}}) step
// CHECK-NOT: memref.alloc() {{.*}} : memref<{{[0-9]+}}x1x32xf32>
// CHECK: scf.parallel (%{{.*}}) = (%c0{{.*}}) to (%c1{{(_[0-9]+)?}}) step
// CHECK: memref.alloc() {{.*}} : memref<16x1x32xf32>
// CHECK: scf.parallel (%{{.*}}) = (%c0{{.*}}) to (%c2{{(_[0-9]+)?}}) step
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%c0{{.*}}) to (%c8{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) step
module attributes {rock.num_threads = 8 : i64} {
func.func @short(%q: memref<8x1x32xf32>, %out: memref<8x1x32xf32>,
    %k0: memref<1x128x32xf32>, %v0: memref<1x128x32xf32>,
    %k1: memref<1x192x32xf32>, %v1: memref<1x192x32xf32>,
    %k2: memref<1x256x32xf32>, %v2: memref<1x256x32xf32>) {
  rock.gridwise_attention q(%q : memref<8x1x32xf32>)
      k(%k0 : memref<1x128x32xf32>) v(%v0 : memref<1x128x32xf32>)
      out(%out : memref<8x1x32xf32>)
      attributes {splitKV = 1 : i32, numRepeatsGQA = 8 : i32,
                  prePadG0M = 128 : i64, prePadG0N = 8 : i64,
                  mPerBlock = 64 : i32, nPerBlock = 8 : i32,
                  gridSize = 1 : i64, softmaxType = f32} {
  }
  rock.gridwise_attention q(%q : memref<8x1x32xf32>)
      k(%k1 : memref<1x192x32xf32>) v(%v1 : memref<1x192x32xf32>)
      out(%out : memref<8x1x32xf32>)
      attributes {splitKV = 1 : i32, numRepeatsGQA = 8 : i32,
                  prePadG0M = 192 : i64, prePadG0N = 8 : i64,
                  mPerBlock = 64 : i32, nPerBlock = 8 : i32,
                  gridSize = 1 : i64, softmaxType = f32,
                  rock.num_threads = 16 : i64} {
  }
  rock.gridwise_attention q(%q : memref<8x1x32xf32>)
      k(%k2 : memref<1x256x32xf32>) v(%v2 : memref<1x256x32xf32>)
      out(%out : memref<8x1x32xf32>)
      attributes {splitKV = 1 : i32, numRepeatsGQA = 8 : i32,
                  prePadG0M = 256 : i64, prePadG0N = 8 : i64,
                  mPerBlock = 64 : i32, nPerBlock = 8 : i32,
                  gridSize = 1 : i64, softmaxType = f32} {
  }
  return
}
}
