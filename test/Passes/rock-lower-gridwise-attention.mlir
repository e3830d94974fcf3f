// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention)' | FileCheck %s
// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention,rock-lower-views)' | FileCheck %s --check-prefix=VIEWS

// After rock-lower-views no view access, and no gridwise op, is left.
// VIEWS-NOT: rock.gridwise_attention
// VIEWS-NOT: rock.view_load
// VIEWS-NOT: rock.view_store

// Static split (docs/semantics.md §5.3, rocMLIR's lit case): Sk 512, MB 32, S 8 gives
// 16 key tiles, 2 per split, end clamped with an unsigned min. The guard of
// docs/semantics.md §5.6 selects 0 for m_new == −inf and feeds both the correction and P; the
// final scale and the LSE select on l == 0 (§5.6).

// CHECK-LABEL: func @static_split
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-DAG: %[[LN2:.*]] = arith.constant 0.693147182 : f32
// CHECK: scf.parallel (%[[BID:.*]]) = (%[[C0]]) to (%[[C16]]) step (%[[C1]])
// CHECK: %[[SPLIT:.*]] = arith.remui %[[BID]], %[[C8]] : index
// CHECK: %[[T:.*]] = arith.divui %[[BID]], %[[C8]] : index
// CHECK: %[[NBLK:.*]] = arith.remui %[[T]], %[[C2]] : index
// CHECK: %[[GBLK:.*]] = arith.divui %[[T]], %[[C2]] : index
// CHECK: %[[M:.*]] = memref.alloc() {{.*}} : memref<32xf32>
// CHECK: %[[L:.*]] = memref.alloc() {{.*}} : memref<32xf32>
// CHECK: memref.store %[[NINF]], %[[M]][%{{.*}}] : memref<32xf32>
// CHECK: memref.store %[[ZERO]], %[[L]][%{{.*}}] : memref<32xf32>
// CHECK: %[[START:.*]] = arith.muli %[[SPLIT]], %[[C2]] : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[START]], %[[C2]] : index
// CHECK: %[[END:.*]] = arith.minui %[[C16]], %[[NEXT]] : index
// CHECK: scf.for %[[KT:.*]] = %[[START]] to %[[END]] step %[[C1]] {
// CHECK: %[[J0:.*]] = arith.muli %[[KT]], %[[C32]] : index
// CHECK: rock.view_load %arg1[%[[GBLK]], %{{.*}}, %{{.*}}] : memref<1x512x64xf16> -> vector<8xf16>
// CHECK: rock.view_load %arg2[%[[GBLK]], %{{.*}}, %{{.*}}] : memref<1x512x64xf16> -> vector<8xf16>
// gemm0 with f32 vector accumulation along the key tile, two rows per K load.
// CHECK: %[[G0:.*]]:2 = scf.for {{.*}} -> (vector<32xf32>, vector<32xf32>) {
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : vector<32xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : vector<32xf32>
// CHECK: vector.store %[[G0]]#0
// CHECK: vector.store %[[G0]]#1
// Scores (no region): the tile in vectors along j, in the scores' units
// (log2 e multiplies differences only), padding keys (j >= Sk) select −inf;
// tile maximum by a maxnumf reduction. The masks run only for a partial
// tile (nCols < MB); a full one takes a copy of the loop without them.
// CHECK: %[[PARTIAL:.*]] = arith.cmpi ult, %{{.*}}, %[[C32]] : index
// CHECK: scf.if %[[PARTIAL]] -> (f32) {
// CHECK: %[[JB:.*]] = vector.broadcast %{{.*}} : index to vector<32xindex>
// CHECK: %[[STEP:.*]] = vector.step : vector<32xindex>
// CHECK: %[[JV:.*]] = arith.addi %[[JB]], %[[STEP]] : vector<32xindex>
// CHECK: %[[PAD:.*]] = arith.cmpi sge, %[[JV]], %{{.*}} : vector<32xindex>
// CHECK: arith.select %[[PAD]], %{{.*}}, %{{.*}} : vector<32xi1>, vector<32xf32>
// CHECK: vector.reduction <maxnumf>, %{{.*}} : vector<32xf32> into f32
// CHECK: } else {
// CHECK-NOT: vector.step
// CHECK: vector.reduction <maxnumf>, %{{.*}} : vector<32xf32> into f32
// The running maximum lives in the exp2 domain: the tile's maximum enters
// it as one product with log2 e.
// CHECK: %[[MOLD:.*]] = memref.load %[[M]]
// CHECK: %[[TM2:.*]] = arith.mulf %{{.*}}, %[[LOG2E]] : f32
// CHECK: %[[MNEW:.*]] = arith.maxnumf %[[MOLD]], %[[TM2]] : f32
// CHECK: %[[ISNINF:.*]] = arith.cmpf oeq, %[[MNEW]], %[[NINF]] : f32
// CHECK: %[[MSAFE:.*]] = arith.select %[[ISNINF]], %[[ZERO]], %[[MNEW]] : f32
// CHECK: %[[DM2:.*]] = arith.subf %[[MOLD]], %[[MSAFE]] : f32
// The rescale factor by the same polynomial as P, on one lane.
// CHECK: arith.maximumf %[[DM2]], %{{.*}} : f32
// CHECK: math.roundeven %{{.*}} : f32
// CHECK: %[[CORR:.*]] = arith.select %{{.*}}, %[[DM2]], %{{.*}} : f32
// P = exp2(fma(x, log2e, -m_safe)) over the tile in vectors (one FMA a
// score, one rounding), exp2 an arith polynomial, so it vectorises; −inf
// gives exactly 0 and NaN propagates.
// CHECK: %[[X:.*]] = vector.load
// CHECK: %[[L2B:.*]] = vector.broadcast %[[LOG2E]] : f32 to vector<32xf32>
// CHECK: %[[NMS:.*]] = arith.negf %[[MSAFE]] : f32
// CHECK: %[[MSB:.*]] = vector.broadcast %[[NMS]] : f32 to vector<32xf32>
// CHECK: %[[DX:.*]] = llvm.intr.fma(%[[X]], %[[L2B]], %[[MSB]]) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
// CHECK: %[[CLAMP:.*]] = arith.maximumf %[[DX]], %{{.*}} : vector<32xf32>
// CHECK: math.roundeven %[[CLAMP]] : vector<32xf32>
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[DX]], %[[DX]] : vector<32xf32>
// CHECK: %[[P:.*]] = arith.select %[[NAN]], %[[DX]], %{{.*}} : vector<32xi1>, vector<32xf32>
// P rounded to V's element type before gemm1; the row sum takes P unrounded.
// CHECK: %[[PH:.*]] = arith.truncf %[[P]] : vector<32xf32> to vector<32xf16>
// CHECK: arith.extf %[[PH]] : vector<32xf16> to vector<32xf32>
// CHECK: arith.addf %{{.*}}, %[[P]] fastmath<reassoc,contract> : vector<32xf32>
// CHECK: vector.reduction <add>, %{{.*}} fastmath<reassoc,contract> : vector<32xf32> into f32
// CHECK: %[[LOLD:.*]] = memref.load %[[L]]
// CHECK: %[[CL:.*]] = arith.mulf %[[CORR]], %[[LOLD]] : f32
// CHECK: %[[LNEW:.*]] = arith.addf %[[CL]], %{{.*}} : f32
// CHECK: memref.store %[[LNEW]], %[[L]]
// CHECK: memref.store %[[MNEW]], %[[M]]
// gemm1: O = c * O + P * V, 64 lanes of O per step.
// CHECK: %[[CB:.*]] = vector.broadcast %[[CORR]] : f32 to vector<64xf32>
// CHECK: %[[OC:.*]] = arith.mulf %{{.*}}, %[[CB]] fastmath<reassoc,contract> : vector<64xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[OC]]) -> (vector<64xf32>)
// Finalisation, after the key-tile loop.
// CHECK: %[[OB0:.*]] = arith.muli %{{.*}}, %[[C8]] : index
// CHECK: %[[OB:.*]] = arith.addi %[[OB0]], %[[SPLIT]] : index
// CHECK: %[[LV:.*]] = memref.load %[[L]]
// CHECK: %[[LZ:.*]] = arith.cmpf oeq, %[[LV]], %[[ZERO]] : f32
// O / l: a division (one rounding), not a product with 1 / l.
// CHECK: %[[LB:.*]] = vector.broadcast %[[LV]] : f32 to vector<8xf32>
// CHECK: arith.divf %{{.*}}, %[[LB]] : vector<8xf32>
// CHECK: %[[OS:.*]] = arith.select %[[LZ]], %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: %[[OH:.*]] = arith.truncf %[[OS]] : vector<8xf32> to vector<8xf16>
// CHECK: rock.view_store %[[OH]], %arg3[%[[OB]], %{{.*}}, %{{.*}}] : vector<8xf16>, memref<8x64x64xf16>
// CHECK: %[[MV:.*]] = memref.load %[[M]]
// CHECK: %[[LG:.*]] = math.log2 %[[LV]] : f32
// LSE = (m + log2 l) ln 2, m in the exp2 domain.
// CHECK: %[[S:.*]] = arith.addf %[[MV]], %[[LG]] : f32
// CHECK: %[[LN:.*]] = arith.mulf %[[S]], %[[LN2]] : f32
// CHECK: %[[LSE:.*]] = arith.select %[[LZ]], %[[NINF]], %[[LN]] : f32
// CHECK: rock.view_store %[[LSE]], %arg4[%[[OB]], %{{.*}}] : f32, memref<8x64xf32>
// CHECK-NOT: rock.gridwise_attention
func.func @static_split(%q: memref<1x64x64xf16>, %k: memref<1x512x64xf16>,
    %v: memref<1x512x64xf16>, %out: memref<8x64x64xf16>,
    %lse: memref<8x64xf32>) {
  rock.gridwise_attention q(%q : memref<1x64x64xf16>)
      k(%k : memref<1x512x64xf16>) v(%v : memref<1x512x64xf16>)
      out(%out : memref<8x64x64xf16>) lse(%lse : memref<8x64xf32>)
      attributes {splitKV = 8 : i32, numRepeatsGQA = 1 : i32,
                  prePadG0M = 512 : i64, prePadG0N = 64 : i64,
                  mPerBlock = 32 : i32, nPerBlock = 32 : i32,
                  gridSize = 16 : i64, softmaxType = f32} {
  }
  return
}

// -----

// nMB < S (docs/semantics.md §5.3: Sk 384, MB 64, S 8): 6 tiles, 1 per split, splits 6
// and 7 empty. Early exit (docs/semantics.md §5.5): the range is only a loop bound, so empty
// splits still reach the unconditional O / LSE stores (no scf.if).

// CHECK-LABEL: func @fewer_tiles_than_splits
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[SPLIT:.*]] = arith.remui %{{.*}}, %[[C8]] : index
// CHECK: %[[START:.*]] = arith.muli %[[SPLIT]], %[[C1]] : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[START]], %[[C1]] : index
// CHECK: %[[END:.*]] = arith.minui %[[C6]], %[[NEXT]] : index
// CHECK: scf.for %{{.*}} = %[[START]] to %[[END]] step %[[C1]] {
// The one scf.if inside the tile loop picks the masked or the unmasked
// scores loop (a partial tile, a row bound inside it); none after it.
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-NOT: scf.if
// CHECK: rock.view_store %{{.*}}, %arg3[
// CHECK-NOT: scf.if
// CHECK: rock.view_store %{{.*}}, %arg4[
func.func @fewer_tiles_than_splits(%q: memref<1x16x32xf32>,
    %k: memref<1x384x32xf32>, %v: memref<1x384x32xf32>,
    %out: memref<8x16x32xf32>, %lse: memref<8x16xf32>) {
  rock.gridwise_attention q(%q : memref<1x16x32xf32>)
      k(%k : memref<1x384x32xf32>) v(%v : memref<1x384x32xf32>)
      out(%out : memref<8x16x32xf32>) lse(%lse : memref<8x16xf32>)
      attributes {splitKV = 8 : i32, numRepeatsGQA = 1 : i32,
                  prePadG0M = 384 : i64, prePadG0N = 16 : i64,
                  mPerBlock = 64 : i32, nPerBlock = 16 : i32,
                  gridSize = 8 : i64, softmaxType = f32} {
  }
  return
}

// -----

// Causal (docs/semantics.md §5.4): each row's last visible key is min(Sk - 1, i); the block's
// key range ends at the tile holding the largest one; keys past a row's
// last key are masked with a select.

// CHECK-LABEL: func @causal_rows
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[CM1:.*]] = arith.constant -1 : index
// CHECK-DAG: %[[SKM1:.*]] = arith.constant 99 : index
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[SPLIT:.*]] = arith.remui %{{.*}}, %[[C4]] : index
// CHECK: %[[LASTBUF:.*]] = memref.alloc() {{.*}} : memref<8xindex>
// CHECK: %[[EFF:.*]] = scf.for %[[R:.*]] = %[[C0]] to %{{.*}} step %{{.*}} iter_args(%[[E:.*]] = %[[CM1]]) -> (index) {
// CHECK: %[[N:.*]] = arith.addi %{{.*}}, %[[R]] : index
// CHECK: %[[I:.*]] = arith.divui %[[N]], %{{.*}} : index
// CHECK: %[[LAST:.*]] = arith.minsi %[[SKM1]], %[[I]] : index
// CHECK: memref.store %[[LAST]], %[[LASTBUF]][%[[R]]] : memref<8xindex>
// CHECK: %[[EN:.*]] = arith.maxsi %[[E]], %[[LAST]] : index
// CHECK: scf.yield %[[EN]] : index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[EFF]], %[[C0]] : index
// CHECK: %[[EA:.*]] = arith.addi %[[EFF]], %[[C16]] : index
// CHECK: %[[EB:.*]] = arith.divsi %[[EA]], %[[C16]] : index
// CHECK: %[[NEND:.*]] = arith.select %[[NEG]], %[[C0]], %[[EB]] : index
// CHECK: %[[ITERS:.*]] = arith.ceildivui %[[NEND]], %[[C4]] : index
// CHECK: %[[START:.*]] = arith.muli %[[SPLIT]], %[[ITERS]] : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[START]], %[[ITERS]] : index
// CHECK: %[[END:.*]] = arith.minui %[[NEND]], %[[NEXT]] : index
// CHECK: scf.for %[[KT:.*]] = %[[START]] to %[[END]]
// CHECK: arith.muli %[[KT]], %[[C16]] : index
// CHECK: %[[LR:.*]] = memref.load %[[LASTBUF]][%{{.*}}] : memref<8xindex>
// CHECK: %[[LRB:.*]] = vector.broadcast %[[LR]] : index to vector<8xindex>
// CHECK: %[[GT:.*]] = arith.cmpi sgt, %{{.*}}, %[[LRB]] : vector<8xindex>
// CHECK: arith.select %[[GT]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
func.func @causal_rows(%q: memref<1x100x16xf32>, %k: memref<1x100x16xf32>,
    %v: memref<1x100x16xf32>, %out: memref<4x100x16xf32>,
    %lse: memref<4x100xf32>) {
  rock.gridwise_attention q(%q : memref<1x100x16xf32>)
      k(%k : memref<1x100x16xf32>) v(%v : memref<1x100x16xf32>)
      out(%out : memref<4x100x16xf32>) lse(%lse : memref<4x100xf32>)
      attributes {causal, splitKV = 4 : i32, numRepeatsGQA = 1 : i32,
                  prePadG0M = 100 : i64, prePadG0N = 100 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 8 : i32,
                  gridSize = 52 : i64, softmaxType = f32} {
  }
  return
}

// -----

// GQA (R = 2) with currentSeqLen and a prefix offset: merged row n is query
// position n / R of query batch gBlk * R + n % R; K / V are read with the KV
// batch gBlk. last = min(Sk - 1, currentSeqLen[bq], i + prefixOffset[bq]).

// CHECK-LABEL: func @gqa_kv_cache_prefix
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[SKM1:.*]] = arith.constant 63 : index
// CHECK: %[[SPLIT:.*]] = arith.remui %[[BID:.*]], %[[C3]] : index
// CHECK: %[[T:.*]] = arith.divui %[[BID]], %[[C3]] : index
// CHECK: %[[GBLK:.*]] = arith.divui %[[T]], %{{.*}} : index
// CHECK: %[[N0:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[BQ0:.*]] = arith.muli %[[GBLK]], %[[C2]] : index
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[N:.*]] = arith.addi %[[N0]], %[[R]] : index
// CHECK: %[[I:.*]] = arith.divui %[[N]], %[[C2]] : index
// CHECK: %[[RR:.*]] = arith.remui %[[N]], %[[C2]] : index
// CHECK: %[[BQ:.*]] = arith.addi %[[BQ0]], %[[RR]] : index
// CHECK: rock.view_load %arg0[%[[BQ]], %[[I]], %{{.*}}] : memref<4x16x32xf16> -> vector<8xf16>
// CHECK: %[[CSL:.*]] = rock.view_load %arg3[%[[BQ]]] : memref<4xi32> -> i32
// CHECK: %[[CSLI:.*]] = arith.index_cast %[[CSL]] : i32 to index
// CHECK: %[[L1:.*]] = arith.minsi %[[SKM1]], %[[CSLI]] : index
// CHECK: %[[PO:.*]] = rock.view_load %arg4[%[[BQ]]] : memref<4xi32> -> i32
// CHECK: %[[POI:.*]] = arith.index_cast %[[PO]] : i32 to index
// CHECK: %[[LIM:.*]] = arith.addi %[[I]], %[[POI]] : index
// CHECK: %[[LAST:.*]] = arith.minsi %[[L1]], %[[LIM]] : index
// CHECK: arith.ceildivui %{{.*}}, %[[C3]] : index
// CHECK: rock.view_load %arg1[%[[GBLK]], %{{.*}}, %{{.*}}] : memref<2x64x32xf16>
// CHECK: rock.view_load %arg2[%[[GBLK]], %{{.*}}, %{{.*}}] : memref<2x64x32xf16>
// The output batch of merged row n is bq * S + split.
// CHECK: %[[OBQ:.*]] = arith.addi %[[BQ0]], %{{.*}} : index
// CHECK: %[[OB0:.*]] = arith.muli %{{.*}}, %[[C3]] : index
// CHECK: %[[OB:.*]] = arith.addi %[[OB0]], %[[SPLIT]] : index
// CHECK: rock.view_store %{{.*}}, %arg5[%[[OB]], %{{.*}}, %{{.*}}] : vector<8xf16>, memref<12x16x32xf16>
// CHECK: rock.view_store %{{.*}}, %arg6[%[[OB]], %{{.*}}] : f32, memref<12x16xf32>
func.func @gqa_kv_cache_prefix(%q: memref<4x16x32xf16>,
    %k: memref<2x64x32xf16>, %v: memref<2x64x32xf16>, %csl: memref<4xi32>,
    %po: memref<4xi32>, %out: memref<12x16x32xf16>, %lse: memref<12x16xf32>) {
  rock.gridwise_attention q(%q : memref<4x16x32xf16>)
      k(%k : memref<2x64x32xf16>) v(%v : memref<2x64x32xf16>)
      currentSeqLen(%csl : memref<4xi32>) prefixOffset(%po : memref<4xi32>)
      out(%out : memref<12x16x32xf16>) lse(%lse : memref<12x16xf32>)
      attributes {causal, splitKV = 3 : i32, numRepeatsGQA = 2 : i32,
                  prePadG0M = 64 : i64, prePadG0N = 32 : i64,
                  mPerBlock = 32 : i32, nPerBlock = 16 : i32,
                  gridSize = 12 : i64, softmaxType = f32} {
  }
  return
}

// -----

// Sliding window (docs/semantics.md §3, §5.4 item 4): keys before
// min(Sk - 1, currentSeqLen) - W (here 39 - 5, whatever the causal bound of
// the row) are masked, and the split's first tile is raised to the block's
// lowest window start.

// CHECK-LABEL: func @sliding_window
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[W:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[SKM1:.*]] = arith.constant 39 : index
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: memref.alloc() {{.*}} : memref<8xindex>
// CHECK: %[[LOWBUF:.*]] = memref.alloc() {{.*}} : memref<8xindex>
// CHECK: %[[EL:.*]]:2 = scf.for %[[R:.*]] = {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[LK:.*]] = %{{.*}}) -> (index, index) {
// CHECK: arith.minsi %{{.*}}, %{{.*}} : index
// CHECK: %[[LOW:.*]] = arith.subi %[[SKM1]], %[[W]] : index
// CHECK: memref.store %[[LOW]], %[[LOWBUF]][%[[R]]] : memref<8xindex>
// CHECK: %[[LOW0:.*]] = arith.maxsi %[[LOW]], %[[C0]] : index
// CHECK: arith.minsi %[[LK]], %[[LOW0]] : index
// CHECK: %[[START:.*]] = arith.muli
// CHECK: %[[LT:.*]] = arith.divui %[[EL]]#1, %[[C8]] : index
// CHECK: %[[START2:.*]] = arith.maxui %[[START]], %[[LT]] : index
// CHECK: scf.for %{{.*}} = %[[START2]] to
// CHECK: %[[LR:.*]] = memref.load %[[LOWBUF]][%{{.*}}] : memref<8xindex>
// CHECK: %[[LRB:.*]] = vector.broadcast %[[LR]] : index to vector<8xindex>
// CHECK: %[[BEFORE:.*]] = arith.cmpi slt, %{{.*}}, %[[LRB]] : vector<8xindex>
// CHECK: arith.select %[[BEFORE]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
func.func @sliding_window(%q: memref<1x40x16xf32>, %k: memref<1x40x16xf32>,
    %v: memref<1x40x16xf32>, %out: memref<3x40x16xf32>,
    %lse: memref<3x40xf32>) {
  rock.gridwise_attention q(%q : memref<1x40x16xf32>)
      k(%k : memref<1x40x16xf32>) v(%v : memref<1x40x16xf32>)
      out(%out : memref<3x40x16xf32>) lse(%lse : memref<3x40xf32>)
      attributes {causal, splitKV = 3 : i32, numRepeatsGQA = 1 : i32,
                  prePadG0M = 40 : i64, prePadG0N = 40 : i64,
                  mPerBlock = 8 : i32, nPerBlock = 8 : i32,
                  gridSize = 15 : i64, softmaxType = f32,
                  slidingWindowSize = 5 : i32} {
  }
  return
}

// -----

// Causal look-back (docs/semantics.md §3): the band looks back from the
// row's causal bound, keys before i - L are masked.

// CHECK-LABEL: func @causal_look_back
// CHECK-DAG: %[[L:.*]] = arith.constant 3 : index
// CHECK: memref.alloc() {{.*}} : memref<8xindex>
// CHECK: %[[LOWBUF:.*]] = memref.alloc() {{.*}} : memref<8xindex>
// CHECK: %[[I:.*]] = arith.divui
// CHECK: arith.minsi %{{.*}}, %[[I]] : index
// CHECK: %[[LOW:.*]] = arith.subi %[[I]], %[[L]] : index
// CHECK: memref.store %[[LOW]], %[[LOWBUF]][%{{.*}}] : memref<8xindex>
func.func @causal_look_back(%q: memref<1x40x16xf32>, %k: memref<1x40x16xf32>,
    %v: memref<1x40x16xf32>, %out: memref<1x40x16xf32>) {
  rock.gridwise_attention q(%q : memref<1x40x16xf32>)
      k(%k : memref<1x40x16xf32>) v(%v : memref<1x40x16xf32>)
      out(%out : memref<1x40x16xf32>)
      attributes {causal, splitKV = 1 : i32, numRepeatsGQA = 1 : i32,
                  prePadG0M = 40 : i64, prePadG0N = 40 : i64,
                  mPerBlock = 8 : i32, nPerBlock = 8 : i32,
                  gridSize = 5 : i64, softmaxType = f32,
                  causalLookBack = 3 : i32} {
  }
  return
}

// -----

// The pre-softmax region is cloned per 16 scores on vectors (its ops are
// elementwise) and per score in the tail: the f32 accumulator is
// converted to the region's argument type, the elementwise input is read at
// [bq, i, j], the yield is widened to softmaxType; the row's maximum is
// taken over the stored scores after them.
// reverseGrid walks the workgroups backwards.

// CHECK-LABEL: func @region_and_reverse
// CHECK-DAG: %[[CGM1:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK: scf.parallel (%[[BID0:.*]]) =
// CHECK: %[[BID:.*]] = arith.subi %[[CGM1]], %[[BID0]] : index
// CHECK: arith.remui %[[BID]], %{{.*}} : index
// CHECK: rock.view_load %arg1[{{.*}}] : memref<2x32x32xf16> -> vector<32xf16>
// CHECK: vector.extract %{{.*}}[3] : f32 from vector<4xf32>
// CHECK: %[[N:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[I:.*]] = arith.divui %[[N]], %{{.*}} : index
// CHECK: %[[BQ:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[VACC:.*]] = vector.load %{{.*}} : memref<8x16xf32>, vector<16xf32>
// CHECK: %[[VA:.*]] = arith.truncf %[[VACC]] : vector<16xf32> to vector<16xf16>
// CHECK: %[[VSC:.*]] = rock.view_load %arg3[{{.*}}] : memref<2x8x32xf16> -> vector<16xf16>
// CHECK: arith.mulf %[[VA]], %[[VSC]] : vector<16xf16>
// CHECK: %[[ACC:.*]] = memref.load %{{.*}} : memref<8x16xf32>
// CHECK: %[[JJ:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[A:.*]] = arith.truncf %[[ACC]] : f32 to f16
// CHECK: %[[SC:.*]] = rock.view_load %arg3[%[[BQ]], %[[I]], %[[JJ]]] : memref<2x8x32xf16> -> f16
// CHECK: %[[Y:.*]] = arith.mulf %[[A]], %[[SC]] : f16
// CHECK: %[[YF:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK: memref.store %[[YF]], %{{.*}} : memref<8x16xf32>
// CHECK: vector.reduction <maxnumf>
// CHECK: arith.subf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: rock.view_load %arg2[{{.*}}] : memref<2x32x16xf16> -> vector<16xf16>
// CHECK-NOT: unrealized_conversion_cast
func.func @region_and_reverse(%q: memref<2x8x32xf16>, %k: memref<2x32x32xf16>,
    %v: memref<2x32x16xf16>, %scale: memref<2x8x32xf16>,
    %out: memref<4x8x16xf16>, %lse: memref<4x8xf32>) {
  rock.gridwise_attention q(%q : memref<2x8x32xf16>)
      k(%k : memref<2x32x32xf16>) v(%v : memref<2x32x16xf16>)
      elementwise(%scale : memref<2x8x32xf16>)
      out(%out : memref<4x8x16xf16>) lse(%lse : memref<4x8xf32>)
      attributes {reverseGrid, splitKV = 2 : i32, numRepeatsGQA = 1 : i32,
                  prePadG0M = 32 : i64, prePadG0N = 8 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 8 : i32,
                  gridSize = 4 : i64, softmaxType = f32} {
  ^bb0(%a: f16, %s: f16):
    %m = arith.mulf %a, %s : f16
    rock.yield %m : f16
  }
  return
}

// -----

// i8: gemm0 accumulates in i32 (sign-extended inputs, muli / addi); the
// region's i32 argument takes the accumulator as is and dequantises.

// CHECK-LABEL: func @int8
// CHECK: arith.extsi %{{.*}} : vector<8xi8> to vector<8xi32>
// CHECK: arith.muli %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK: arith.addi %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK: %[[ACC:.*]] = memref.load %{{.*}} : memref<4x16xi32>
// CHECK: %[[D:.*]] = arith.sitofp %[[ACC]] : i32 to f16
// CHECK: arith.extf %{{.*}} : f16 to f32
func.func @int8(%q: memref<1x4x16xi8>, %k: memref<1x16x16xi8>,
    %v: memref<1x16x16xf16>, %out: memref<1x4x16xf16>) {
  rock.gridwise_attention q(%q : memref<1x4x16xi8>)
      k(%k : memref<1x16x16xi8>) v(%v : memref<1x16x16xf16>)
      out(%out : memref<1x4x16xf16>)
      attributes {splitKV = 1 : i32, numRepeatsGQA = 1 : i32,
                  prePadG0M = 16 : i64, prePadG0N = 4 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 4 : i32,
                  gridSize = 1 : i64, softmaxType = f32} {
  ^bb0(%a: i32):
    %f = arith.sitofp %a : i32 to f16
    rock.yield %f : f16
  }
  return
}

// -----

// Decode (few merged rows per workgroup, float accumulation): the fused
// form. No local K / V tiles; gemm0 reads each K row straight from its view
// (one access, the d loop unrolled over 16-lane slices shared by 4 merged
// rows, 8 partial sums), and reduces the 4 rows' scores together by a
// shuffle-and-add tree; the per-row softmax keeps its rescale factor in a
// [NB] buffer; gemm1 reads V straight from its view (64 columns of a row
// by one access), 4 rows x 64 columns of O in 16 vector<16> accumulators. Row groups stop at the real
// rows (4 of NB = 32 here). A full key tile is walked in 8 interleaved
// streams (key = (j % 8) * MB/8 + j / 8), a partial one in order. Per key,
// gemm0 prefetches the 64-byte lines of the K row one tile ahead (clamped
// to the last key; one rock.view_prefetch with `lines`), gemm1 the lines of
// the V columns it reads one tile ahead.

// CHECK-LABEL: func @decode_dot_form
// CHECK-NOT: memref<16x64xf32>
// CHECK: %[[NROWS:.*]] = arith.minui %{{.*}}, %{{.*}} : index
// CHECK: scf.for %[[RG:.*]] = %{{.*}} to %[[NROWS]] step %c4 {
// CHECK: %[[FULL:.*]] = arith.cmpi eq, %{{.*}}, %c16 : index
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c8 : index
// CHECK: %[[BASE:.*]] = arith.muli %[[LANE]], %c2 : index
// CHECK: %[[STEP:.*]] = arith.divui %{{.*}}, %c8 : index
// CHECK: %[[JP:.*]] = arith.addi %[[BASE]], %[[STEP]] : index
// CHECK: %[[KEY:.*]] = arith.select %[[FULL]], %[[JP]], %{{.*}} : index
// CHECK: %[[JJ:.*]] = arith.addi %{{.*}}, %[[KEY]] : index
// CHECK: %[[AHEAD:.*]] = arith.addi %[[JJ]], %c16 : index
// CHECK: %[[NXT:.*]] = arith.minui %[[AHEAD]], %c127 : index
// CHECK: rock.view_prefetch %arg1[%{{.*}}, %[[NXT]], %c0] {lines = 4 : i32} : memref<2x128x64xf32>
// CHECK-NOT: rock.view_prefetch
// CHECK: %[[ROW:.*]] = rock.view_load %arg1[%{{.*}}, %[[JJ]], %c0] : memref<2x128x64xf32> -> vector<64xf32>
// CHECK: %[[KV:.*]] = vector.extract_strided_slice %[[ROW]] {offsets = [0], sizes = [16], strides = [1]} : vector<64xf32> to vector<16xf32>
// CHECK: %[[QV:.*]] = vector.load %{{.*}}[%[[RG]], %{{.*}}] : memref<32x64xf32>, vector<16xf32>
// CHECK: arith.mulf %[[QV]], %[[KV]] fastmath<reassoc,contract> : vector<16xf32>
// CHECK: vector.extract_strided_slice %[[ROW]] {offsets = [48], sizes = [16], strides = [1]}
// CHECK: %[[LO:.*]] = vector.shuffle %[[PS:[^ ,]+]], %[[PS1:[^ ,]+]] [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<16xf32>, vector<16xf32>
// CHECK: %[[HI:.*]] = vector.shuffle %[[PS]], %[[PS1]] [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
// CHECK: arith.addf %[[LO]], %[[HI]] fastmath<reassoc,contract> : vector<16xf32>
// CHECK: %[[R4:.*]] = arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : vector<4xf32>
// CHECK: %[[R0:.*]] = vector.extract %[[R4]][0] : f32 from vector<4xf32>
// CHECK: memref.store %[[R0]], %{{.*}}[%[[RG]], %{{.*}}] : memref<32x16xf32>
// CHECK: vector.extract %[[R4]][3] : f32 from vector<4xf32>
// CHECK: math.roundeven %{{.*}} : f32
// CHECK: %[[C:.*]] = arith.select %{{.*}} : f32
// CHECK: memref.store %[[C]], %[[CT:.*]][%{{.*}}] : memref<32xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[NROWS]] step %c4 {
// CHECK: memref.load %[[CT]][%{{.*}}] : memref<32xf32>
// CHECK: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK: %[[KV2:.*]] = arith.select
// CHECK: %[[JV:.*]] = arith.addi %{{.*}}, %[[KV2]] : index
// CHECK: %[[AV:.*]] = arith.addi %[[JV]], %c16 : index
// CHECK: %[[NV:.*]] = arith.minui %[[AV]], %c127 : index
// CHECK: rock.view_prefetch %arg2[%{{.*}}, %[[NV]], %[[DC:.*]]] {lines = 4 : i32} : memref<2x128x64xf32>
// CHECK-NOT: rock.view_prefetch
// CHECK: %[[VROW:.*]] = rock.view_load %arg2[%{{.*}}, %{{.*}}, %[[DC]]] : memref<2x128x64xf32> -> vector<64xf32>
// CHECK: vector.extract_strided_slice %[[VROW]] {offsets = [48], sizes = [16], strides = [1]} : vector<64xf32> to vector<16xf32>
// CHECK: memref.dealloc %[[CT]] : memref<32xf32>
func.func @decode_dot_form(%q: memref<8x1x64xf32>, %k: memref<2x128x64xf32>,
    %v: memref<2x128x64xf32>, %out: memref<16x1x64xf32>,
    %lse: memref<16x1xf32>) {
  rock.gridwise_attention q(%q : memref<8x1x64xf32>)
      k(%k : memref<2x128x64xf32>) v(%v : memref<2x128x64xf32>)
      out(%out : memref<16x1x64xf32>) lse(%lse : memref<16x1xf32>)
      attributes {splitKV = 2 : i32, numRepeatsGQA = 4 : i32,
                  prePadG0M = 128 : i64, prePadG0N = 4 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 32 : i32,
                  gridSize = 4 : i64, softmaxType = f32} {
  }
  return
}

// -----

// Decode with K key-major in memory ([Bkv, Dqk, Sk], rocMLIR's default dense
// layout, seen through a permuting view): gemm0 reads K from a
// [Bkv, Dqk, Sk] view, per d four vector<16> of consecutive keys shared by
// the 4 rows (16 accumulators, no horizontal reductions), then 16-key blocks
// and single keys; K is not prefetched (its rows are not d-contiguous).

#kperm = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["b", "s", "d"] at [0, 1, 2] -> ["b", "s", "d"] at [0, 2, 1]>] bounds = [2, 128, 64] -> [2, 64, 128]>

// CHECK-LABEL: func @decode_key_major
// CHECK: %[[KT:.*]] = rock.transform %{{.*}} by {{.*}} : memref<2x128x64xf32> to memref<2x64x128xf32>
// CHECK-NOT: rock.view_prefetch %{{.*}} : memref<2x128x64xf32>
// CHECK: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK: rock.view_load %[[KT]][%{{.*}}, %[[D:.*]], %{{.*}}] : memref<2x64x128xf32> -> vector<16xf32>
// CHECK: %[[Q:.*]] = memref.load %{{.*}}[%{{.*}}, %[[D]]] : memref<32x64xf32>
// CHECK: vector.broadcast %[[Q]] : f32 to vector<16xf32>
// CHECK: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32) {
// CHECK: rock.view_load %[[KT]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x64x128xf32> -> f32
// CHECK-NOT: vector.reduction <add>, %{{.*}} : vector<16xf32> into f32
// CHECK: math.roundeven %{{.*}} : f32
func.func @decode_key_major(%q: memref<8x1x64xf32>, %kmem: memref<2x64x128xf32>,
    %v: memref<2x128x64xf32>, %out: memref<16x1x64xf32>,
    %lse: memref<16x1xf32>) {
  %k = rock.transform %kmem by #kperm : memref<2x64x128xf32> to memref<2x128x64xf32>
  rock.gridwise_attention q(%q : memref<8x1x64xf32>)
      k(%k : memref<2x128x64xf32>) v(%v : memref<2x128x64xf32>)
      out(%out : memref<16x1x64xf32>) lse(%lse : memref<16x1xf32>)
      attributes {splitKV = 2 : i32, numRepeatsGQA = 4 : i32,
                  prePadG0M = 128 : i64, prePadG0N = 4 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 32 : i32,
                  gridSize = 4 : i64, softmaxType = f32} {
  }
  return
}
