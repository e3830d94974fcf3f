// REQUIRES: cuda-toolkit
// rock.gpu_wgmma_tma (opt-in; passes/gpu/attention_wgmma_tma.c,
// docs/gpu-accel.md): the producer warpgroup's first thread stages K and V
// with cp.async.bulk.tensor into the 128-byte swizzled tiles (the switch
// implies rock.gpu_wgmma_swizzle128), one copy per 64-element block, after
// mbarrier.arrive.expect_tx of the tile's bytes on the stage's full
// barrier (initialised for that one arrival); Q stays on cp.async with its
// own barrier (the ninth: 16 bytes more workgroup memory than the
// swizzled form). The tensor maps are host allocations marked
// rock.tensor_map that the bundle carries as tensor_map lines.
// The causal kernels here are the one-tile form (rock.gpu_wgmma_persistent
// = false; by rule causal problems are persistent since run 13, pinned in
// test/GPU/attention-wgmma-persistent.mlir).
// RUN: rm -rf %t && mkdir -p %t
// K [keys][d] with a key tail (500 keys: the last tile's rows past Sk are
// out of the map's bounds).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 500 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_tma=true --module-attr rock.gpu_wgmma_persistent=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=IR
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 500 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_tma=true --module-attr rock.gpu_wgmma_persistent=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/k.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/k.mlir %t/k
// RUN: FileCheck %s --check-prefixes=PTX,PTXK < %t/k/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/k/rock_attention_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 500 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 -pv --module-attr rock.gpu_wgmma_tma=true --module-attr rock.gpu_wgmma_persistent=false \
// RUN:   | rock-run --compile-only -o %t/k.bundle
// RUN: FileCheck %s --check-prefix=BUNDLE < %t/k.bundle
// RUN: rock-run-gpu --check %t/k.bundle | FileCheck %s --check-prefix=CHECK-MAPS
// The benchmark's bundle reader (bench/gpu/attention_bench.py) sees them.
// RUN: python3 -c "import sys; sys.path.insert(0, '%rock_src/bench/gpu'); import attention_bench as a; f = a.read_bundle('%t/k.bundle')['funcs']['rock_attention']; print(f['tmaps'][1], f['launches'][0]['params'][:3])" | FileCheck %s --check-prefix=PYMAPS
// K stored [d][keys] (rocMLIR's default layout): the map runs along the
// keys, d lines a box; with ping-pong.
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -pv --module-attr rock.gpu_wgmma_tma=true --module-attr rock.gpu_wgmma_pingpong=true \
// RUN:   | rock-run --compile-only -o %t/kt.bundle
// RUN: FileCheck %s --check-prefix=BUNDLEKT < %t/kt.bundle
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_wgmma_tma=true --module-attr rock.gpu_wgmma_pingpong=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/kt.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/kt.mlir %t/kt
// RUN: FileCheck %s --check-prefix=PTX < %t/kt/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/kt/rock_attention_kernel.ptx -o %t/kt.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// Where the switch does nothing: paged K / V with
// rock.gpu_wgmma_tma_paged = false (cp.async through the page table), no
// producer warpgroup, a head dim off a multiple of 64.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 64 --page-size 2048 --arch sm_90 -pv --module-attr rock.gpu_wgmma_tma=true --module-attr rock.gpu_wgmma_tma_paged=false \
// RUN:   | rock-run --compile-only -o %t/paged.bundle
// RUN: FileCheck %s --check-prefix=NOTMA < %t/paged.bundle
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --module-attr rock.gpu_wgmma_tma=true --module-attr rock.gpu_wgmma_producer=false \
// RUN:   | rock-run --compile-only -o %t/nows.bundle
// RUN: FileCheck %s --check-prefix=NOTMA < %t/nows.bundle
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 96 -head_dim_v 96 --transK --arch sm_90 -pv --module-attr rock.gpu_wgmma_tma=true \
// RUN:   | rock-run --compile-only -o %t/d96.bundle
// RUN: FileCheck %s --check-prefix=NOTMA < %t/d96.bundle

// IR: memref.alloc() {alignment = 64 : i64, rock.tensor_map = {arg = 1 : i64, box = array<i64: 64, 128, 1>, dims = array<i64: 128, 500, 2>, dtype = "bf16", offset = 0 : i64, strides = array<i64: 256, 128000>, swizzle = 128 : i64}} : memref<128xi8>
// IR: memref.alloc() {alignment = 64 : i64, rock.tensor_map = {arg = 2 : i64, box = array<i64: 64, 128, 1>, dims = array<i64: 128, 500, 2>, dtype = "bf16", offset = 0 : i64, strides = array<i64: 256, 128000>, swizzle = 128 : i64}} : memref<128xi8>
// IR: gpu.launch
// IR: nvvm.mbarrier.init
// IR: nvvm.fence.mbarrier.init
// IR: nvvm.setmaxregister decrease 40
// IR: nvvm.cp.async.mbarrier.arrive {{.*}} {noinc = true}
// IR: nvvm.mbarrier.arrive.expect_tx
// IR: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[
// IR: nvvm.setmaxregister increase 232
// IR: nvvm.mbarrier.try_wait.parity
// IR: gpu.terminator
// IR: memref.dealloc

// PTX: .target sm_90a
// The full barriers count one arrival, the empty ones 256, Q's 128.
// PTX: mov.b32 [[ONE:%r[0-9]+]], 1;
// PTX: mbarrier.init.shared.b64 [{{.*}}], [[ONE]];
// PTX: fence.mbarrier_init.release.cluster;
// PTX: setmaxnreg.dec.sync.aligned.u32 40;
// PTX: cp.async.cg.shared.global
// PTX: cp.async.mbarrier.arrive.noinc.shared.b64
// PTX: prefetch.tensormap [{{%rd[0-9]+}}];
// PTX-NEXT: prefetch.tensormap [{{%rd[0-9]+}}];
// 32 KiB a tile (128 keys x 128 x 2 bytes).
// PTXK: mov.b32 [[BYTES:%r[0-9]+]], 32768;
// PTXK-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [[BYTES]];
// PTX: mbarrier.arrive.expect_tx.shared.b64
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{[{]%r[0-9]+, %r[0-9]+, %r[0-9]+[}]}}], [{{.*}}];
// PTX: setmaxnreg.inc.sync.aligned.u32 232;
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.{{b?f16}}.{{b?f16}}

// PTXAS-NOT: Potential Performance Loss
// PTXAS: Compiling entry function 'rock_attention_kernel' for 'sm_90a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: Potential Performance Loss

// BUNDLE: tensor_map 0 arg 1 bf16 offset 0 rank 3 dims 128 500 2 strides 256 128000 box 64 128 1 swizzle 128
// BUNDLE-NEXT: tensor_map 1 arg 2 bf16 offset 0 rank 3 dims 128 500 2 strides 256 128000 box 64 128 1 swizzle 128
// BUNDLE-NEXT: launch 0 rock_attention_kernel grid {{[0-9]+}} 1 1 block 384 1 1 smem 164944
// BUNDLE-NEXT: param arg 0
// BUNDLE-NEXT: param tmap 0
// BUNDLE-NEXT: param tmap 1

// CHECK-MAPS: rock_attention launch 0: rock_attention_kernel {{.*}} smem 164944: Q, tensor map of K (bf16 dims 128x500x2 box 64x128x1 swizzle 128), tensor map of V (bf16 dims 128x500x2 box 64x128x1 swizzle 128),

// PYMAPS: {'arg': 2, 'pool': False, 'dtype': 'bf16', 'offset': 0, 'dims': [128, 500, 2], 'strides': [256, 128000], 'box': [64, 128, 1], 'swizzle': 128} [('arg', 0), ('tmap', 0), ('tmap', 1)]

// K [d][keys]: keys innermost (stride 1), d lines 1024 bytes apart.
// BUNDLEKT: tensor_map 0 arg 1 f16 offset 0 rank 3 dims 512 128 2 strides 1024 131072 box 64 128 1 swizzle 128
// BUNDLEKT-NEXT: tensor_map 1 arg 2 f16 offset 0 rank 3 dims 128 512 2 strides 256 131072 box 64 128 1 swizzle 128

// NOTMA-NOT: tensor_map
// NOTMA-NOT: param tmap
// NOTMA: launch 0 rock_attention_kernel
// NOTMA-NOT: cp.async.bulk.tensor
// NOTMA-NOT: param tmap
