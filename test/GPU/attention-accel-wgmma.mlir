// sm_90a with rock.gpu_accel_wgmma = true (opt-in): the attention schedule's Q·Kᵀ
// on warpgroup MMA (attention_accel.c, accel_wgmma.c) when one warpgroup
// holds the block (64 merged rows, 64-key
// tiles): Q and K staged in the wgmma layout (unswizzled), the cp.async
// staging fenced for the async proxy before the barrier, 8 (d 128 / 16)
// m64n64k16 products per key tile, the S accumulator cut into the m16n8
// tiles the masks and softmax read; P·V stays on mma.sync with ldmatrix.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90a -wgmma=off --module-attr rock.gpu_accel_wgmma=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=WG
// WG: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c128,
// WG: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// WG-NEXT: gpu.barrier
// WG: scf.for
// WG: nvvm.cp.async.wait.group 0
// WG-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// WG-NEXT: gpu.barrier
// WG: nvvm.wgmma.fence.aligned
// WG-COUNT-8: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// WG-NOT: nvvm.wgmma.mma_async
// WG: nvvm.wgmma.commit.group.sync.aligned
// WG-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WG-COUNT-8: vector.extract_strided_slice {{.*}} : vector<32xf32> to vector<4xf32>
// WG: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// WG: nvvm.mma.sync
//
// By default, on sm_90 (even with the switch), and for blocks of fewer than
// 64 merged rows (q 4 x group 4 = 16): mma.sync for both gemms.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90a -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MMA
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_wgmma=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MMA
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 4 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90a -wgmma=off --module-attr rock.gpu_accel_wgmma=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MMA
// MMA-NOT: nvvm.wgmma
// MMA-NOT: nvvm.fence.proxy
// MMA: nvvm.mma.sync
// MMA-NOT: nvvm.wgmma
//
// rock-run bundles it: the llvm.mlir.undef the wgmma accumulator struct starts
// from is hoisted to the host function and left there dead by outlining,
// which rock-run's host-function check accepts (a constant without uses);
// the bundle's kernel holds the wgmma.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90a -wgmma=off --module-attr rock.gpu_accel_wgmma=true \
// RUN:   | rock-run --compile-only -o %t.bundle
// RUN: FileCheck %s --check-prefix=BUNDLE < %t.bundle
// BUNDLE: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
