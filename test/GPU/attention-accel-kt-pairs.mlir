// K^T pairs (rock.gpu_accel_kt_pairs = true, opt-in; docs/gpu.md "Decode"):
// rocMLIR's default K layout ([G, d, keys], staged as K^T tiles) with two
// K^T slots (K at 0 and 16384 bytes, V at 32768, Q under the K slots: 48
// KiB); the first two K^T tiles are one cp.async group before the key loop,
// and the K^T of tiles t + 1 and t + 2 are issued together once every
// warp is past Q·K(t)ᵀ of every second tile ((t - start) mod 2 = 1), so that
// each d row of K is read in runs of 128 keys (256 bytes) instead of 64.
// Q·K(t)ᵀ reads slot (t - start) mod 2.
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_kt_pairs=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=KP
// KP: workgroup(%[[B:.*]] : memref<49152xi8, #gpu.address_space<workgroup>>)
// KP: %[[Q:.*]] = memref.view %[[B]][%c0][] : memref<49152xi8, #gpu.address_space<workgroup>> to memref<16x128xbf16
// KP: %[[K0:.*]] = memref.view %[[B]][%c0][] : memref<49152xi8, #gpu.address_space<workgroup>> to memref<128x64xbf16
// KP: %[[V:.*]] = memref.view %[[B]][%c32768][] : memref<49152xi8, #gpu.address_space<workgroup>> to memref<64x128xbf16
// KP: arith.muli %c1, %c16384 : index
// KP: %[[K1:.*]] = memref.view %[[B]][%{{.*}}][] : memref<49152xi8, #gpu.address_space<workgroup>> to memref<128x64xbf16
// KP: nvgpu.ldmatrix %[[Q]]
// KP: gpu.barrier
// KP: vector.store {{.*}}, %[[K0]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// KP: scf.if
// KP: vector.store {{.*}}, %[[K1]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// KP: nvvm.cp.async.commit.group
// KP: scf.for {{.*}} iter_args
// KP: arith.remui %{{.*}}, %c2 : index
// KP: %[[KS:.*]] = memref.view %[[B]]
// KP-NEXT: nvvm.cp.async.wait.group 0
// KP-NEXT: gpu.barrier
// KP: vector.store {{.*}}, %[[V]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// KP: nvvm.cp.async.commit.group
// KP: nvgpu.ldmatrix %[[KS]]{{.*}}transpose = true
// KP: nvvm.cp.async.wait.group 0
// KP-NEXT: gpu.barrier
// KP: arith.remui %{{.*}}, %c2 : index
// KP-NEXT: arith.cmpi eq, %{{.*}}, %c1 : index
// KP-NEXT: %[[ODD:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// KP-NEXT: scf.if %[[ODD]] {
// KP: vector.store {{.*}}, %[[K0]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// KP: scf.if
// KP: vector.store {{.*}}, %[[K1]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// KP: nvvm.cp.async.commit.group
// KP: nvgpu.ldmatrix %[[V]]
// KP: scf.yield
// --transK (K rows) does not take it, nor the K / V overlap (here by its
// switch): one K buffer, 36 KiB.
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_kt_pairs=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=ROWS
// ROWS: workgroup(%{{.*}} : memref<36864xi8, #gpu.address_space<workgroup>>)
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_kt_pairs=true --module-attr rock.gpu_accel_kv_overlap=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OVL
// OVL: workgroup(%{{.*}} : memref<36864xi8, #gpu.address_space<workgroup>>)
// OVL: nvvm.cp.async.wait.group 1
