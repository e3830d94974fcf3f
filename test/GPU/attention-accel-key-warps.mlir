// REQUIRES: cuda-toolkit
// Key warps on one partition (rock.gpu_accel_key_warps = W', opt-in;
// docs/gpu.md "Decode"): W' warps of one warp's rows, warp w taking the
// partition's tiles start + w, start + w + W', ... into its own K / V slot
// (the largest key tile whose W' slots fit 48 KiB: 32 keys for 2, 16 for 4;
// Q after the slots, 36 KiB in all), with only the warp's barrier
// (bar.warp.sync) in the key loop; after it every warp waits for its
// copies, a workgroup barrier, warps 1 .. W' - 1 store (m, l, O) into
// workgroup memory, a barrier, and warp 0 merges them (max of m, weights
// exp2((m_w - M) log2 e)) and stores the rows; the split's partitions are
// the one-warp rule's divided by W' (B 1 L 8k: 64 -> 32 / 16, 512 -> 256 /
// 128 workgroups), still merged by the fused tree.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_key_warps=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=KW2
// KW2: gpu.launch blocks({{.*}}) in (%{{.*}} = %c256, {{.*}} threads({{.*}}) in (%{{.*}} = %c64, {{.*}} workgroup(%[[B:.*]] : memref<36864xi8
// KW2-NEXT: %[[W:.*]] = arith.divui %{{.*}}, %c32 : index
// KW2-NEXT: memref.view %[[B]][%c32768][] : {{.*}} to memref<16x128xbf16
// KW2-NEXT: %[[KO:.*]] = arith.muli %[[W]], %c8192 : index
// KW2-NEXT: arith.addi %c0, %[[KO]] : index
// KW2-NEXT: memref.view %[[B]][%{{.*}}][] : {{.*}} to memref<32x128xbf16
// KW2-NEXT: %[[VO:.*]] = arith.muli %[[W]], %c8192 : index
// KW2-NEXT: arith.addi %c16384, %[[VO]] : index
// KW2-NEXT: memref.view %[[B]][%{{.*}}][] : {{.*}} to memref<32x128xbf16
// KW2: %[[KW:.*]] = arith.divui %{{.*}}, %c32 : index
// KW2: %[[S:.*]] = arith.addi %{{.*}}, %[[KW]] : index
// KW2: scf.for %{{.*}} = %[[S]] to %{{.*}} step %c2 iter_args
// KW2-NOT: gpu.barrier
// KW2: nvvm.bar.warp.sync
// KW2-NOT: gpu.barrier
// KW2: scf.yield
// KW2-NEXT: }
// KW2: nvvm.cp.async.wait.group 0
// KW2-NEXT: gpu.barrier
// KW2-NEXT: %[[ST:.*]] = memref.view %[[B]][%c0][] : {{.*}} to memref<9216xf32
// KW2-NEXT: %[[NE:.*]] = arith.cmpi ne, %[[KW]], %c0 : index
// KW2-NEXT: scf.if %[[NE]] {
// KW2: vector.store %{{.*}}, %[[ST]][%{{.*}}] : memref<9216xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// KW2: memref.store %{{.*}}, %[[ST]][%{{.*}}] : memref<9216xf32
// KW2: gpu.barrier
// KW2-NEXT: %[[EQ:.*]] = arith.cmpi eq, %[[KW]], %c0 : index
// KW2-NEXT: scf.if %[[EQ]] {
// KW2: memref.load %[[ST]]
// KW2: arith.maxnumf
// KW2: vector.load %[[ST]]
// KW2: rock.view_store
// KW2: nvvm.membar
// KW2: gpu.barrier
// KW2: atomic_rmw
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_key_warps=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=KW4
// KW4: memref.alloc() {{.*}}rock.zero_init} : memref<8xi32>
// KW4: gpu.launch blocks({{.*}}) in (%{{.*}} = %c128, {{.*}} threads({{.*}}) in (%{{.*}} = %c128, {{.*}} workgroup(%[[B:.*]] : memref<36864xi8
// KW4-NEXT: %[[W:.*]] = arith.divui %{{.*}}, %c32 : index
// KW4-NEXT: memref.view %[[B]][%c32768][] : {{.*}} to memref<16x128xbf16
// KW4-NEXT: arith.muli %[[W]], %c4096 : index
// KW4-NEXT: arith.addi %c0, %{{.*}} : index
// KW4-NEXT: memref.view %[[B]][%{{.*}}][] : {{.*}} to memref<16x128xbf16
// KW4-NEXT: arith.muli %[[W]], %c4096 : index
// KW4-NEXT: arith.addi %c16384, %{{.*}} : index
// KW4: scf.for %{{.*}} step %c4 iter_args
// KW4-NOT: gpu.barrier
// KW4: scf.yield
// KW4-NEXT: }
// KW4: nvvm.cp.async.wait.group 0
// KW4-NEXT: gpu.barrier
// KW4-COUNT-3: arith.maxnumf
// In the PTX 64 / 128 threads, ptxas without spills (212 / 191 registers when
// written).
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_key_warps=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/k2.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/k2.mlir %t/k2
// RUN: FileCheck %s --check-prefixes=PTX,PTX2 < %t/k2/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/k2/rock_attention_kernel.ptx -o %t/k2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_key_warps=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/k4.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/k4.mlir %t/k4
// RUN: FileCheck %s --check-prefixes=PTX,PTX4 < %t/k4/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/k4/rock_attention_kernel.ptx -o %t/k4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// PTX2: .maxntid 64, 1, 1
// PTX4: .maxntid 128, 1, 1
// PTX: .shared .align 16 .b8 {{.*}}[36864];
// PTX: bar.sync 0;
// PTX: cp.async.wait_group 1;
// PTX-NEXT: bar.warp.sync -1;
// PTX: cp.async.wait_group 0;
// PTX-NEXT: bar.sync 0;
// PTX: st.shared.v4.b32
// PTX: bar.sync 0;
// PTX: ld.shared.b32
// PTX: ex2.approx.ftz.f32
// PTX: atom.global.add.u32
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS: 36864 bytes smem
// The rule (the attribute not given, keyWarpsRule): W' = 2 for 16-bit
// decode on sm_90 and later with dense K / V, the PTX byte for byte that of
// = 2 (k2 above), and different from = 1; paged K / V, rocMLIR's default K
// layout ([d][keys]) and sm_80 keep one warp (the PTX of = 1). Where key warps do not apply the attribute changes
// nothing: the ring (rock.gpu_accel_stages = 3) and 4 warps of rows (q 16,
// GQA 4).
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/k0.mlir
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/k1.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/k0.mlir %t/k0
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/k1.mlir %t/k1
// RUN: cmp %t/k0/rock_attention_kernel.ptx %t/k2/rock_attention_kernel.ptx
// RUN: not cmp -s %t/k0/rock_attention_kernel.ptx %t/k1/rock_attention_kernel.ptx
// RUN: rock-gen -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --paged-attention --num-pages 4096 --page-size 2048 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p0.mlir
// RUN: rock-gen -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --paged-attention --num-pages 4096 --page-size 2048 --arch sm_90 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p1.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p0.mlir %t/p0
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p1.mlir %t/p1
// RUN: cmp %t/p0/rock_attention_kernel.ptx %t/p1/rock_attention_kernel.ptx
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/t0.mlir
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/t1.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/t0.mlir %t/t0
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/t1.mlir %t/t1
// RUN: cmp %t/t0/rock_attention_kernel.ptx %t/t1/rock_attention_kernel.ptx
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_80 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/a0.mlir
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_80 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/a1.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/a0.mlir %t/a0
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/a1.mlir %t/a1
// RUN: cmp %t/a0/rock_attention_kernel.ptx %t/a1/rock_attention_kernel.ptx
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' > %t/r0.mlir
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_stages=3 --module-attr rock.gpu_accel_key_warps=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' > %t/r2.mlir
// RUN: grep -v "^module attributes" %t/r0.mlir > %t/r0.body
// RUN: grep -v "^module attributes" %t/r2.mlir | diff - %t/r0.body
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 16 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' > %t/m0.mlir
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 16 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_key_warps=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' > %t/m4.mlir
// RUN: grep -v "^module attributes" %t/m0.mlir > %t/m0.body
// RUN: grep -v "^module attributes" %t/m4.mlir | diff - %t/m0.body
