// K and V copies in flight together (rock.gpu_accel_kv_overlap; not given,
// the staging rule of docs/gpu.md "Decode"): the first K and V tiles are two cp.async
// groups before the key loop; per tile, wait for all but the newest group
// (K(t)), barrier, Q·K(t)ᵀ, barrier, K(t + 1) issued and committed (the
// commit outside the `scf.if` of the last tile, so that every tile commits
// two groups), the softmax, wait for all but the newest (V(t)), barrier,
// P·V(t), barrier, V(t + 1) issued and committed. By the rule since run 13
// every problem of up to 16 queries takes it, dense q-1 decode too; = false
// keeps one copy in flight (wait.group 0, two barriers a tile).
// Views of the one workgroup buffer: K at 0, V at 16384 bytes, Q at 32768.
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_kv_overlap=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OVL
// OVL: %[[K:.*]] = memref.view %{{.*}}[%c0][] : memref<36864xi8, #gpu.address_space<workgroup>> to memref<64x128xbf16
// OVL: %[[V:.*]] = memref.view %{{.*}}[%c16384][] : memref<36864xi8, #gpu.address_space<workgroup>> to memref<64x128xbf16
// OVL: vector.store {{.*}}, %[[K]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// OVL: nvvm.cp.async.commit.group
// OVL: vector.store {{.*}}, %[[V]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// OVL: nvvm.cp.async.commit.group
// OVL: scf.for
// OVL-NOT: nvvm.cp.async.wait.group 0
// OVL: nvvm.cp.async.wait.group 1
// OVL-NEXT: gpu.barrier
// OVL: nvvm.mma.sync
// OVL: gpu.barrier
// OVL-NEXT: arith.addi
// OVL-NEXT: %[[MORE:.*]] = arith.cmpi ult
// OVL-NEXT: scf.if %[[MORE]] {
// OVL: vector.store {{.*}}, %[[K]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// OVL: }
// OVL-NEXT: }
// OVL-NEXT: nvvm.cp.async.commit.group
// OVL: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// OVL: nvvm.cp.async.wait.group 1
// OVL-NEXT: gpu.barrier
// OVL: nvgpu.ldmatrix %[[V]]
// OVL: nvvm.mma.sync
// OVL: gpu.barrier
// OVL-NEXT: scf.if %[[MORE]] {
// OVL: vector.store {{.*}}, %[[V]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// OVL: }
// OVL-NEXT: }
// OVL-NEXT: nvvm.cp.async.commit.group
// OVL-NEXT: scf.yield
// OVL-NOT: nvvm.cp.async.wait.group
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_kv_overlap=false --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=DEF
// DEF: scf.for
// DEF-NOT: nvvm.cp.async.wait.group 1
// DEF: nvvm.cp.async.wait.group 0
// DEF-NOT: nvvm.cp.async.wait.group 1
// DEF: nvvm.cp.async.wait.group 0
// DEF-NOT: nvvm.cp.async.wait.group 1
// With page runs (rock.gpu_accel_page_ahead = true, pages of 16 tokens): the
// V pointers carried are V(t + 1)'s, loaded with K(t + 2)'s; in the PTX the
// page pointers stay 64-bit loads, and each tile waits with wait_group 1
// twice, never 0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --paged-attention --num-pages 128 --page-size 2048 --module-attr rock.gpu_accel_page_ahead=true --module-attr rock.gpu_accel_kv_overlap=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/r.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/r.mlir %t/r
// RUN: FileCheck %s --check-prefix=RUNS < %t/r/rock_attention_kernel.ptx
// RUNS-NOT: ld.global.b32
// RUNS-NOT: cp.async.wait_group 0
// RUNS-COUNT-2: cp.async.wait_group 1;
// RUNS-NOT: cp.async.wait_group
// Multi-token decode (q 16 x R 4: 64 merged rows, four warps) takes it too;
// the sm_90a Q·Kᵀ-on-wgmma form does not (its fence and one wait a tile).
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 16 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -causal -prefix_offset=1008,1008 --module-attr rock.gpu_accel_kv_overlap=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MTD
// MTD: threads({{.*}} = %c128
// MTD: scf.for
// MTD-COUNT-2: nvvm.cp.async.wait.group 1
// MTD-NOT: nvvm.cp.async.wait.group 0
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 16 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90a -wgmma=off --module-attr rock.gpu_accel_wgmma=true --module-attr rock.gpu_accel_kv_overlap=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=WGS
// WGS: nvvm.wgmma.fence.aligned
// WGS-NOT: nvvm.cp.async.wait.group 1
// The staging rule (module attribute not given): on up to 16 queries,
// dense q-1 decode (R 4 and R 1), q 8 x R 4 (32 rows), q 16 x R 4 and
// paged K / V (16-token pages); off above 16 queries (q 32 x R 4 on the
// mma.sync schedule), with the switch false (dense q 8, paged), where the
// K / V ring is given (rock.gpu_accel_stages = 3: one wait a tile) and
// where K^T pairs are given below 64 merged rows (rocMLIR's default K
// layout, q 1: one wait a tile for K and V, wait.group 0; with 64 merged
// rows the overlap stays, as in run 11).
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -seq_len_q 1 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PGD
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 8 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -seq_len_q 1 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PGD
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -seq_len_q 16 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MTD
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -seq_len_q 8 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PGD
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -seq_len_q 8 --module-attr rock.gpu_accel_kv_overlap=false --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=DEF
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -seq_len_q 32 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=DEF
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -seq_len_q 1 --module-attr rock.gpu_accel_stages=3 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=RING
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -seq_len_q 1 --module-attr rock.gpu_accel_kt_pairs=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=DEF
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -seq_len_q 16 --module-attr rock.gpu_accel_kt_pairs=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MTD
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -seq_len_q 1 --paged-attention --num-pages 128 --page-size 2048 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PGD
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -seq_len_q 1 --paged-attention --num-pages 128 --page-size 2048 --module-attr rock.gpu_accel_kv_overlap=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=DEF
// RING: scf.for
// RING: nvvm.cp.async.wait.group 1
// RING-NEXT: gpu.barrier
// RING-NOT: nvvm.cp.async.wait.group
// RING: scf.yield
// PGD: scf.for
// PGD-COUNT-2: nvvm.cp.async.wait.group 1
// PGD-NOT: nvvm.cp.async.wait.group 0
