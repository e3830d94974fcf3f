// REQUIRES: cuda-toolkit
// Paged K / V by TMA (rock.gpu_wgmma_tma_paged, on by default;
// passes/gpu/attention_wgmma_tma.c, docs/gpu-accel.md "Paged K / V by
// TMA"): a tensor map over each page pool, (d, pool row, 1) with a box of
// {64, min(tokens a page, 128), 1}, marked `pool = 1` (the bundle's `pool`
// keyword: the map's argument is the page table, its base the table's pool);
// the producer's copying thread reads the pools' addresses after the maps
// (byte 128), loads a tile's page addresses (one load per page, all before
// the copies), traps on an address off the pool in one branch, and issues
// one cp.async.bulk.tensor per page and 64-element block after expect_tx
// of the tile's exact bytes.
// RUN: rm -rf %t && mkdir -p %t
// Pages of 16 tokens (2048 elements at d 128): 8 boxes of 16 rows a tile.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 64 --page-size 2048 --arch sm_90 --module-attr rock.gpu_wgmma_tma_paged=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=IR
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 64 --page-size 2048 --arch sm_90 --module-attr rock.gpu_wgmma_tma_paged=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p16.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p16.mlir %t/p16
// RUN: FileCheck %s --check-prefixes=PTX,PTXLD < %t/p16/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/p16/rock_attention_kernel.ptx -o %t/p16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 64 --page-size 2048 --arch sm_90 -pv --module-attr rock.gpu_wgmma_tma_paged=true \
// RUN:   | rock-run --compile-only -o %t/p16.bundle
// RUN: FileCheck %s --check-prefix=BUNDLE < %t/p16.bundle
// RUN: rock-run-gpu --check %t/p16.bundle | FileCheck %s --check-prefix=CHECK-MAPS
// RUN: python3 -c "import sys; sys.path.insert(0, '%rock_src/bench/gpu'); import attention_bench as a; f = a.read_bundle('%t/p16.bundle')['funcs']['rock_attention']; print(f['tmaps'][1])" | FileCheck %s --check-prefix=PYMAPS
// Pages of 2048 tokens (a tile inside a page: the in-page row is added)
// and of 8 tokens with a key tail (1000 keys: boxes past the end re-read
// the last box).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 2 --page-size 262144 --arch sm_90 --module-attr rock.gpu_wgmma_tma_paged=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=BIG
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 1000 -head_dim_qk 128 -head_dim_v 128 --transK -current_seq_len=1000,77 -return_lse --paged-attention --num-pages 250 --page-size 1024 --arch sm_90 --module-attr rock.gpu_wgmma_tma_paged=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=TAIL
// The benchmark's kernels (B 2, Hq 64 / Hkv 8, d 128, S 8k; pages of 16
// and 64 tokens, causal and not): no spills.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 8192 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 4096 --page-size 2048 --arch sm_90 --module-attr rock.gpu_wgmma_tma_paged=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/b16.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/b16.mlir %t/b16
// RUN: FileCheck %s --check-prefix=PTX < %t/b16/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/b16/rock_attention_kernel.ptx -o %t/b16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 8192 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK -causal --paged-attention --num-pages 1024 --page-size 8192 --arch sm_90 --module-attr rock.gpu_wgmma_tma_paged=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/b64.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/b64.mlir %t/b64
// RUN: FileCheck %s --check-prefix=PTX64 < %t/b64/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/b64/rock_attention_kernel.ptx -o %t/b64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// rock.gpu_wgmma_tma_paged_lanes = 1 (opt-in): the producer's first warp
// loads the 16 page addresses of a tile at once (lane L: box L % 8 of K or
// V), one trap branch, 16 shuffles to lane 0, which issues the 32 copies;
// = 2 loads them a tile ahead (carried by the loop). No spills either way.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 8192 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 4096 --page-size 2048 --arch sm_90 --module-attr rock.gpu_wgmma_tma_paged_lanes=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/l1.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/l1.mlir %t/l1
// RUN: FileCheck %s --check-prefixes=LANES < %t/l1/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=LCOPY < %t/l1/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/l1/rock_attention_kernel.ptx -o %t/l1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 8192 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK -causal --paged-attention --num-pages 4096 --page-size 2048 --arch sm_90 --module-attr rock.gpu_wgmma_tma_paged_lanes=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/l2.mlir
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 8192 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK -causal --paged-attention --num-pages 4096 --page-size 2048 --arch sm_90 --module-attr rock.gpu_wgmma_tma_paged_lanes=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=AHEAD
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/l2.mlir %t/l2
// RUN: FileCheck %s --check-prefix=LANES < %t/l2/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=LCOPY < %t/l2/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/l2/rock_attention_kernel.ptx -o %t/l2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// The default has no shuffle of page rows.
// RUN: FileCheck %s --check-prefix=NOLANES < %t/b16/rock_attention_kernel.ptx
// Where it does nothing: pages of 4 tokens (under 8: cp.async through the
// page pointers), and with rock.gpu_wgmma_tma_paged = false. The default
// (no attribute) is the TMA form: the same bundle as with the switch on.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 256 --page-size 512 --arch sm_90 -pv --module-attr rock.gpu_wgmma_tma_paged=true \
// RUN:   | rock-run --compile-only -o %t/p4.bundle
// RUN: FileCheck %s --check-prefix=NOTMA < %t/p4.bundle
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 64 --page-size 2048 --arch sm_90 -pv --module-attr rock.gpu_wgmma_tma_paged=false \
// RUN:   | rock-run --compile-only -o %t/off.bundle
// RUN: FileCheck %s --check-prefix=NOTMA < %t/off.bundle
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 64 --page-size 2048 --arch sm_90 -pv \
// RUN:   | rock-run --compile-only -o %t/default.bundle
// RUN: grep -v compile_ms %t/default.bundle > %t/default.b && grep -v compile_ms %t/p16.bundle > %t/p16.b && cmp %t/default.b %t/p16.b

// 64 slots x 16 tokens = 1024 pool rows of 256 bytes.
// IR: memref.alloc() {alignment = 64 : i64, rock.tensor_map = {arg = 1 : i64, box = array<i64: 64, 16, 1>, dims = array<i64: 128, 1024, 1>, dtype = "bf16", offset = 0 : i64, pool = 1 : i64, strides = array<i64: 256, 262144>, swizzle = 128 : i64}} : memref<136xi8>
// IR: memref.alloc() {alignment = 64 : i64, rock.tensor_map = {arg = 2 : i64, {{.*}} pool = 1 : i64, {{.*}}} : memref<136xi8>
// IR: gpu.launch
// IR: nvvm.setmaxregister decrease 40
// IR: nvvm.prefetch tensormap
// IR: nvvm.prefetch tensormap
// IR: llvm.getelementptr {{.*}}[128] : (!llvm.ptr) -> !llvm.ptr, i8
// IR-NEXT: llvm.load {{.*}} -> i64
// IR: llvm.getelementptr {{.*}}[128] : (!llvm.ptr) -> !llvm.ptr, i8
// IR-NEXT: llvm.load {{.*}} -> i64
// IR: scf.for
// K's 8 page addresses, one branch to a trap, then the stage, 32 KiB, 16
// copies (2 blocks of 64 d x 8 boxes of 16 rows), then V's likewise.
// IR-COUNT-8: rock.view_load {{.*}} : memref<2x512x128xi64> -> vector<1xi64>
// IR-NOT: rock.view_load
// IR: arith.cmpi uge, {{.*}}, %c262144_i64 : i64
// IR: arith.remui {{.*}}, %c4096_i64 : i64
// IR: arith.divui {{.*}}, %c256_i64 : i64
// IR: scf.if
// IR-NEXT: llvm.intr.trap
// IR: nvvm.mbarrier.try_wait.parity
// IR: nvvm.mbarrier.arrive.expect_tx {{.*}}, %c32768_i32
// IR-COUNT-8: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%c0_i32, {{.*}}, %c0_i32]
// IR-COUNT-8: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%c64_i32, {{.*}}, %c0_i32]
// IR-NOT: nvvm.cp.async.bulk.tensor
// IR-COUNT-8: rock.view_load {{.*}} : memref<2x512x128xi64> -> vector<1xi64>
// IR: llvm.intr.trap
// IR: nvvm.mbarrier.arrive.expect_tx {{.*}}, %c32768_i32
// IR-COUNT-16: nvvm.cp.async.bulk.tensor.shared.cluster.global
// IR: nvvm.setmaxregister increase 232
// IR: gpu.terminator
// IR: memref.dealloc {{.*}} : memref<136xi8>

// PTX: .target sm_90a
// PTX: setmaxnreg.dec.sync.aligned.u32 40;
// PTX: prefetch.tensormap
// PTX: ld.global.b64 {{.*}}+128];
// PTX: ld.global.b64 {{.*}}+128];
// The page addresses issue back to back (no branch between them).
// PTXLD: ld.global.b64 [[P0:%rd[0-9]+]], [[[T:%rd[0-9]+]]];
// PTXLD-NEXT: ld.global.b64 {{%rd[0-9]+}}, [[[T]]+8];
// PTXLD-NEXT: ld.global.b64 {{%rd[0-9]+}}, [[[T]]+16];
// PTX: mbarrier.arrive.expect_tx.shared.b64
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{[{]%r[0-9]+, %r[0-9]+, %r[0-9]+[}]}}], [{{.*}}];
// PTX: setmaxnreg.inc.sync.aligned.u32 232;
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX: trap;
// Pages of 64 tokens: two page addresses a tile.
// PTX64: ld.global.b64 [[P0:%rd[0-9]+]], [[[T:%rd[0-9]+]]];
// PTX64-NEXT: ld.global.b64 {{%rd[0-9]+}}, [[[T]]+8];
// PTX64-NOT: ld.global.b64 {{%rd[0-9]+}}, [[[T]]+16];
// PTX64: cp.async.bulk.tensor.3d

// PTXAS-NOT: Potential Performance Loss
// PTXAS: Compiling entry function 'rock_attention_kernel' for 'sm_90a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: Potential Performance Loss

// BUNDLE: tensor_map 0 pool 1 bf16 offset 0 rank 3 dims 128 1024 1 strides 256 262144 box 64 16 1 swizzle 128
// BUNDLE-NEXT: tensor_map 1 pool 2 bf16 offset 0 rank 3 dims 128 1024 1 strides 256 262144 box 64 16 1 swizzle 128
// BUNDLE-NEXT: launch 0 rock_attention_kernel grid {{[0-9]+}} 1 1 block 384 1 1 smem 164944
// BUNDLE-NEXT: param arg 0
// BUNDLE-NEXT: param tmap 0
// BUNDLE-NEXT: param tmap 1
// BUNDLE-NEXT: param arg 1
// BUNDLE-NEXT: param arg 2

// CHECK-MAPS: smem 164944: Q, tensor map of the pool of K page table (bf16 dims 128x1024x1 box 64x16x1 swizzle 128), tensor map of the pool of V page table (bf16 dims 128x1024x1 box 64x16x1 swizzle 128), K page table, V page table,

// PYMAPS: {'arg': 2, 'pool': True, 'dtype': 'bf16', 'offset': 0, 'dims': [128, 1024, 1], 'strides': [256, 262144], 'box': [64, 16, 1], 'swizzle': 128}

// One box of 128 rows a tile, the row plus the key's row in its page.
// BIG: rock.tensor_map = {arg = 1 : i64, box = array<i64: 64, 128, 1>, dims = array<i64: 128, 4096, 1>, {{.*}} pool = 1 : i64
// BIG: rock.view_load {{.*}} -> vector<1xi64>
// BIG-NOT: rock.view_load {{.*}} -> vector<1xi64>
// BIG: arith.remui {{.*}}, %c2048 : index
// BIG: nvvm.mbarrier.arrive.expect_tx {{.*}}, %c32768_i32
// BIG-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global

// Boxes of 8 rows, their first keys clamped to 1000 - 8.
// TAIL: rock.tensor_map = {arg = 1 : i64, box = array<i64: 64, 8, 1>, {{.*}} pool = 1 : i64
// TAIL: arith.minui {{.*}}, %c992 : index
// TAIL: nvvm.mbarrier.arrive.expect_tx {{.*}}, %c32768_i32
// TAIL-COUNT-32: nvvm.cp.async.bulk.tensor.shared.cluster.global

// NOTMA-NOT: tensor_map
// NOTMA: launch 0 rock_attention_kernel
// NOTMA-NOT: param tmap
// NOTMA-NOT: cp.async.bulk.tensor
// NOTMA: end

// One page-address load a lane before the 16 shuffles (rows 0-7 K's, 8-15
// V's), no load after them (lane 0 only copies: 32 copies), one trap.
// LANES: ld.global.b64
// LANES: shfl.sync.idx.b32 {{.*}}, 0, 31, -1;
// LANES-COUNT-15: shfl.sync.idx.b32
// LANES-NOT: ld.global
// LANES-NOT: shfl.sync.idx
// LANES: trap;
// LANES-NOT: trap;
// LCOPY-COUNT-32: cp.async.bulk.tensor.3d
// LCOPY-NOT: cp.async.bulk.tensor
// NOLANES-NOT: shfl.sync.idx

// The next tile's addresses loaded in the loop, carried as an i64.
// AHEAD: scf.for {{.*}} iter_args({{.*}}) -> (i64)
// AHEAD: arith.minui
// AHEAD: rock.view_load
// AHEAD: gpu.shuffle idx
