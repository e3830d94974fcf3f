// The K / V ring (rock.gpu_accel_stages = N >= 3, opt-in; docs/gpu.md
// "Decode"): N slots of a K and a V tile in the one workgroup buffer, the
// largest key tile (64, 32, 16) whose N slots fit 48 KiB; the first N - 1
// tiles issued before the key loop (one cp.async group each, committed
// also when the tile is past the end); per tile: wait for all but the N - 2
// newest groups (tile t), one barrier, tile t + N - 1 issued into the slot of
// tile t - 1 and committed, then Q·K(t)ᵀ and P·V(t) from the views of slot
// (t - start) mod N, with no other wait or barrier in the loop.
// N = 3, q-1 decode, d 128: 32-key tiles, slots of 8192 bytes, K at 0, V at
// 3 x 8192; Q (4 KiB) lies under the ring (48 KiB in all).
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=ST3
// ST3: workgroup(%[[B:.*]] : memref<49152xi8, #gpu.address_space<workgroup>>)
// ST3: %[[Q:.*]] = memref.view %[[B]][%c0][] : memref<49152xi8, #gpu.address_space<workgroup>> to memref<16x128xbf16
// ST3: nvgpu.ldmatrix %[[Q]]
// ST3: gpu.barrier
// ST3-NEXT: arith.addi
// ST3-NEXT: arith.cmpi ult
// ST3-NEXT: scf.if
// ST3: arith.remui %{{.*}}, %c3 : index
// ST3-NEXT: arith.muli %{{.*}}, %c8192 : index
// ST3-NEXT: arith.addi %c0, %{{.*}} : index
// ST3-NEXT: %[[K0:.*]] = memref.view %[[B]][%{{.*}}][] : memref<49152xi8, #gpu.address_space<workgroup>> to memref<32x128xbf16
// ST3-NEXT: arith.muli %{{.*}}, %c8192 : index
// ST3-NEXT: arith.addi %c24576, %{{.*}} : index
// ST3-NEXT: %[[V0:.*]] = memref.view %[[B]][%{{.*}}][] : memref<49152xi8, #gpu.address_space<workgroup>> to memref<32x128xbf16
// ST3: vector.store {{.*}}, %[[K0]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// ST3: vector.store {{.*}}, %[[V0]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// ST3: nvvm.cp.async.commit.group
// ST3-NOT: scf.for {{.*}} iter_args
// ST3: nvvm.cp.async.commit.group
// ST3: scf.for {{.*}} iter_args
// ST3-NOT: gpu.barrier
// ST3: nvvm.cp.async.wait.group 1
// ST3-NEXT: gpu.barrier
// ST3-NEXT: arith.addi %{{.*}}, %c2 : index
// ST3-NEXT: arith.cmpi ult
// ST3-NEXT: scf.if
// ST3: vector.store {{.*}} {alignment = 16 : i64, rock.async_copy}
// ST3: nvvm.cp.async.commit.group
// ST3-NEXT: arith.subi
// ST3-NEXT: arith.remui %{{.*}}, %c3 : index
// ST3: %[[KR:.*]] = memref.view %[[B]]
// ST3: %[[VR:.*]] = memref.view %[[B]]
// ST3-NOT: gpu.barrier
// ST3-NOT: nvvm.cp.async.wait.group
// ST3: nvgpu.ldmatrix %[[KR]]
// ST3-NOT: gpu.barrier
// ST3-NOT: nvvm.cp.async.wait.group
// ST3: nvgpu.ldmatrix %[[VR]]{{.*}}transpose = true
// ST3-NOT: gpu.barrier
// ST3-NOT: nvvm.cp.async
// ST3: scf.yield
// N = 4: 16-key tiles (slots of 4096 bytes, V at 16384), Q beside the ring
// (36 KiB): the first tiles are issued before Q is staged; three groups
// before the loop, wait for all but the two newest.
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_stages=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=ST4
// ST4: workgroup(%[[B:.*]] : memref<36864xi8, #gpu.address_space<workgroup>>)
// ST4: memref.view %[[B]][%c32768][] : memref<36864xi8, #gpu.address_space<workgroup>> to memref<16x128xbf16
// ST4-COUNT-3: nvvm.cp.async.commit.group
// ST4: vector.store {{.*}} {alignment = 16 : i64} : memref<16x128xbf16
// ST4: scf.for {{.*}} iter_args
// ST4: nvvm.cp.async.wait.group 2
// ST4-NEXT: gpu.barrier
// ST4-NEXT: arith.addi %{{.*}}, %c3 : index
// ST4: arith.muli %{{.*}}, %c4096 : index
// ST4: arith.addi %c16384, %{{.*}} : index
// ST4: memref.view {{.*}} to memref<16x128xbf16
// ST4-NOT: gpu.barrier
// ST4: scf.yield
// rocMLIR's default K layout (K^T slots [128][16 + 8 padding]), paged K / V
// (pages of 16 tokens; the ring stages through the page pointers, page
// runs off even when asked for) and multi-token decode (q 16 x R 4, four
// warps; the overlap of the staging rule gives way) take it too.
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=KT
// KT: workgroup(%{{.*}} : memref<34816xi8, #gpu.address_space<workgroup>>)
// KT: scf.for {{.*}} iter_args
// KT: nvvm.cp.async.wait.group 1
// KT: arith.muli %{{.*}}, %c6144 : index
// KT: memref.view {{.*}} to memref<128x24xbf16
// KT: nvgpu.ldmatrix {{.*}}transpose = true{{.*}} : memref<128x24xbf16
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --paged-attention --num-pages 128 --page-size 2048 --module-attr rock.gpu_accel_stages=3 --module-attr rock.gpu_accel_page_ahead=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PAGED
// PAGED: rock.deref
// PAGED: scf.for {{.*}} iter_args({{[^)]*}}) -> (f32, f32, f32, f32, {{[^i]*}}) {
// PAGED-NOT: gpu.barrier
// PAGED: nvvm.cp.async.wait.group 1
// PAGED-NOT: nvvm.cp.async.wait.group 0
// PAGED: rock.view_load {{.*}} : memref<4x1024x128xbf16> -> vector<8xbf16>
// PAGED: scf.yield
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 16 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -causal -prefix_offset=1008,1008 --module-attr rock.gpu_accel_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MTD
// MTD: threads({{.*}} = %c128
// MTD: scf.for {{.*}} iter_args
// MTD: nvvm.cp.async.wait.group 1
// MTD-NOT: nvvm.cp.async.wait.group
// MTD: scf.yield
// Where no tile fits the ring it is not taken (d 256, N = 6: the two-buffer
// staging, wait.group 0).
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 256 -head_dim_v 256 --transK --arch sm_90 --module-attr rock.gpu_accel_stages=6 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=BIG
// BIG: scf.for {{.*}} iter_args
// BIG: nvvm.cp.async.wait.group 0
