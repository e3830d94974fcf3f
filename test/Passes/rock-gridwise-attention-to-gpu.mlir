// The GPU lowering of rock.gridwise_attention: the same rules as the CPU
// lowering (shared emitters), scheduled as one gpu.launch.
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 3 -seq_len_k 100 -head_dim_qk 64 -head_dim_v 64 -causal -sliding_window_size 40 -return_lse --transK --arch sm_90 --module-attr rock.gpu_accel=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MASKS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SPLIT
// RUN: rock-gen --operation attention -t f32 -g 1 -num_heads_q 2 -num_heads_kv 2 -seq_len_q 4 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale --with-attn-bias --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=REGION
// RUN: rock-gen --operation attention -t f32 -g 1 -num_heads_q 2 -num_heads_kv 2 -seq_len_q 4 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// Causal + sliding window, GQA 4/2, Sq 3: one workgroup per KV head (6
// merged rows = 3 queries x 2 heads), 4 warps; rows past the block's real
// rows repeat the last one; each row's last key min(Sk - 1, index, i) (with
// a window and no index rock-gen passes the index Sk - 1, as rocmlir-gen),
// the window start min(Sk - 1, index) - 40 (the window looks back from the
// KV bound, not from the row's causal bound), folded into the block's range.
// MASKS: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c128, {{.*}}) workgroup({{.*}} : memref<4x6xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<4x6xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<4x6x64xf32, #gpu.address_space<workgroup>>)
// MASKS: %[[IDX0:.*]] = arith.minsi %c99, %{{.*}} : index
// MASKS: %[[LAST0:.*]] = arith.minsi %[[IDX0]], %{{.*}} : index
// MASKS: %[[EFF0:.*]] = arith.maxsi %c-1, %[[LAST0]] : index
// MASKS: %[[KV0:.*]] = arith.minsi %c99, %{{.*}} : index
// MASKS: %[[LOW0:.*]] = arith.subi %[[KV0]], %c40 : index
// MASKS: arith.maxsi %[[LOW0]], %c0 : index
// The key-tile range: tiles up to the block's last key, ceil-div over the
// splits, the end clamped, the start raised to the window's first tile.
// MASKS: %[[NEG:.*]] = arith.cmpi slt, %[[EFF:.*]], %c0 : index
// MASKS: %[[NE:.*]] = arith.select %[[NEG]], %c0, %{{.*}} : index
// MASKS: %[[IT:.*]] = arith.ceildivui %[[NE]], %c1 : index
// MASKS: %[[ST:.*]] = arith.muli %{{.*}}, %[[IT]] : index
// MASKS: %[[NX:.*]] = arith.addi %[[ST]], %[[IT]] : index
// MASKS: %[[END:.*]] = arith.minui %[[NE]], %[[NX]] : index
// MASKS: %[[LT:.*]] = arith.divui %{{.*}}, %c64 : index
// MASKS: %[[START:.*]] = arith.maxui %[[ST]], %[[LT]] : index
// MASKS: scf.for %{{.*}} = %[[START]] to %[[END]] step %c1 iter_args(
// Keys past Sk are loaded at Sk - 1 (and masked below).
// MASKS: arith.minui %{{.*}}, %c99 : index
// MASKS: rock.view_load {{.*}} {rock.align = 16 : i64} : memref<2x100x64xf16> -> vector<8xf16>
// Row reductions: xor butterflies over the 8 lanes of a key row.
// MASKS: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// MASKS: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// MASKS: gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32 : f32
// Masks: padding keys, keys past the row's last key, keys before its window.
// MASKS: arith.cmpi sge, %{{.*}}, %c100 : index
// MASKS: arith.cmpi sgt, %{{.*}}, %[[LAST0]] : index
// MASKS: arith.cmpi slt, %{{.*}}, %[[LOW0]] : index
// The online softmax step with the -inf guard, exp2 as the hardware op.
// The running maximum is kept in the exp2 domain (times log2 e).
// MASKS: %[[TM2:.*]] = arith.mulf %{{.*}}, %[[L2E:cst_[0-9]+]] : f32
// MASKS-NEXT: %[[MNEW:.*]] = arith.maxnumf %arg{{[0-9]+}}, %[[TM2]] : f32
// MASKS: %[[ISNINF:.*]] = arith.cmpf oeq, %[[MNEW]], %cst : f32
// MASKS: %[[MSAFE:.*]] = arith.select %[[ISNINF]], %cst_0, %[[MNEW]] : f32
// MASKS: %[[DM2:.*]] = arith.subf %{{.*}}, %[[MSAFE]] : f32
// MASKS: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[DM2]]) : (f32) -> f32
// P: one FMA a score, fma(x, log2 e, -m_safe), then the hardware exp2.
// MASKS: %[[NMS:.*]] = arith.negf %[[MSAFE]] : f32
// MASKS: %[[PX:.*]] = llvm.intr.fma(%{{.*}}, %[[L2E]], %[[NMS]]) : (f32, f32, f32) -> f32
// MASKS: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[PX]]) : (f32) -> f32
// MASKS-NOT: math.exp2
// Lane groups merge by shuffles, warps through workgroup memory.
// MASKS: gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32 : f32
// MASKS: gpu.barrier
// Finalisation: the 0/0 guard, O / l, LSE through lg2.
// MASKS: %[[LZ:.*]] = arith.cmpf oeq, %[[L:.*]], %cst_0 : f32
// MASKS: %[[LB:.*]] = vector.broadcast %[[L]] : f32 to vector<8xf32>
// MASKS: arith.divf %{{.*}}, %[[LB]] : vector<8xf32>
// MASKS: arith.select %[[LZ]], %{{.*}}, %{{.*}} : vector<8xf32>
// MASKS: rock.view_store {{.*}} {rock.align = 16 : i64} : vector<8xf16>, memref<4x3x64xf16>
// MASKS: llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%[[L]]) : (f32) -> f32
// MASKS: arith.select %[[LZ]], %cst, %{{.*}} : f32
// MASKS: rock.view_store %{{.*}} : f32, memref<4x3xf32>
// MASKS: gpu.terminator

// bf16 decode, B = 1: no user split, so the keys are cut into 8 partitions
// (f32 scratch partial outputs, f64 partial LSEs, in device memory) and a
// second launch combines them in f32 (the LSE differences in f64), skipping
// empty splits (lse = -inf).
// SPLIT: %[[PO:.*]] = memref.alloc() {{.*}} : memref<64x1x128xf32>
// SPLIT: %[[PL:.*]] = memref.alloc() {{.*}} : memref<64x1xf64>
// SPLIT: gpu.launch blocks({{.*}}) in ({{.*}} = %c16,
// SPLIT: rock.view_store {{.*}} : vector<8xf32>, memref<64x1x128xf32>
// SPLIT: gpu.launch blocks({{.*}}) in ({{.*}} = %c8{{(_[0-9]+)?}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c128{{(_[0-9]+)?}},
// SPLIT: arith.cmpf une, %{{.*}}, %cst{{(_[0-9]+)?}} : f64
// SPLIT: arith.subf %{{.*}}, %{{.*}} : f64
// SPLIT: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// SPLIT-NOT: math.exp
// SPLIT: memref.dealloc %[[PO]]
// SPLIT: memref.dealloc %[[PL]]

// Scale and bias: the region is cloned into every score's slot (no
// placeholder is left).
// REGION: gpu.launch
// REGION: arith.mulf
// REGION: arith.addf
// REGION-NOT: rock.region_slot
// REGION: gpu.terminator

// Generated ops carry the location of the op they came from.
// LOC: gpu.launch
// LOC-NOT: loc("-":
// LOC: gpu.terminator loc(#[[L:loc[0-9]*]])
// LOC: #[[L]] = loc("<stdin>":

// Schedule knobs from the module: 8 keys per lane group make a tile of
// 4 warps x 2 groups x 8 = 64 keys; one pipeline stage loads inside the loop
// only (no K / V load before it); two stages load the first tile before it.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel=false \
// RUN:   | sed 's/^module attributes {/module attributes {rock.gpu_keys_per_group = 8 : i64, rock.gpu_pipeline_stages = 1 : i64, /' \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=KNOBS
// KNOBS: gpu.launch
// KNOBS-NOT: rock.view_load {{.*}} : memref<1x256x128xbf16>
// KNOBS: scf.for %[[KT:.*]] = %{{.*}} to %{{.*}} step %c1 iter_args(
// KNOBS: arith.muli %[[KT]], %c64 : index
// KNOBS: rock.view_load {{.*}} : memref<1x256x128xbf16> -> vector<8xbf16>
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel=false \
// RUN:   | sed 's/^module attributes {/module attributes {rock.gpu_pipeline_stages = 2 : i64, /' \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=STAGES2
// STAGES2: gpu.launch
// STAGES2: rock.view_load {{.*}} : memref<1x256x128xbf16> -> vector<8xbf16>
// STAGES2: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 iter_args({{.*}}) -> ({{.*}}vector<8xbf16>

// Wide rows: head dim 777 f16 allows only 2-byte accesses, 25 chunks per lane
// of 32; the schedule keeps 2 merged rows per workgroup (12 rows of the GQA
// group in 6 workgroups) and one key per lane group instead of failing.
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 3 -seq_len_k 200 -head_dim_qk 777 -head_dim_v 777 --arch sm_90 --module-attr rock.gpu_accel=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=WIDE
// WIDE: gpu.launch blocks({{.*}}) in ({{.*}} = %c12, {{.*}}) threads({{.*}}) in ({{.*}} = %c128, {{.*}}) workgroup({{.*}} : memref<4x2xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<4x2x777xf32, #gpu.address_space<workgroup>>)
// WIDE-NOT: too large
