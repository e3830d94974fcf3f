// i8 attention on the tensor cores (passes/gpu/attention_accel.c): Q·Kᵀ on
// mma.sync m16n8k32 s8 with i32 accumulators, the region (rock-gen's dequant:
// zero point, scale, bias; in f32, rock-gen's default region type) applied to
// each i32 score, then the softmax and
// P·V on m16n8k16 in V's type (f16). Q and K are staged as i8 (16 per
// 16-byte access), V (and P when it goes through memory) as f16.
// RUN: rock-gen --operation attention -t i8 -seq_len_q 384 -seq_len_k 384 -head_dim_qk 64 -head_dim_v 64 --with-attn-scale --with-attn-bias --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=IR
// IR: gpu.launch
// IR: rock.view_load {{.*}} {rock.align = 16 : i64} : memref<1x384x64xi8> -> vector<16xi8>
// IR: vector.store {{.*}} : memref<{{[0-9]+}}x{{[0-9]+}}xi8, #gpu.address_space<workgroup>>, vector<16xi8>
// IR: scf.for
// IR: nvvm.mma.sync {{.*}}intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>{{.*}}multiplicandAPtxType = #nvvm.mma_type<s8>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// IR: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 32>
// IR: vector.from_elements {{.*}} : vector<4xi32>
// IR: %[[ZP:.*]] = arith.extsi %{{.*}} : i8 to i32
// IR: %[[D:.*]] = arith.subi %{{.*}}, %[[ZP]] : i32
// IR: arith.sitofp %[[D]] : i32 to f32
// IR: gpu.shuffle xor
// IR: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)

// GQA causal prefill (rock-gen's i8 region without scale / bias: the zero
// point only).
// RUN: rock-gen --operation attention -t i8 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -causal --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=GQA
// GQA: nvvm.mma.sync {{.*}}k = 32>
// GQA: vector.from_elements {{.*}} : vector<4xi32>
// GQA: arith.subi %{{.*}}, %{{.*}} : i32
// GQA: nvvm.mma.sync {{.*}}k = 16>

// Single-token decode (Sq·R < 16) and head dims off k = 32 keep the SIMT
// schedule.
// RUN: rock-gen --operation attention -t i8 -g 3 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SIMT
// RUN: rock-gen --operation attention -t i8 -seq_len_q 100 -seq_len_k 77 -head_dim_qk 40 -head_dim_v 24 --with-attn-scale --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SIMT
// SIMT: gpu.launch
// SIMT-NOT: nvvm.mma.sync
