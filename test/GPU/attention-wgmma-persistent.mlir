// REQUIRES: cuda-toolkit
// rock.gpu_wgmma_persistent (by planPersist's rule since run 13: causal
// problems; passes/gpu/attention_wgmma.c tileLoop, docs/gpu-accel.md "The
// persistent form"): the producer form with dense
// TMA K / V launches min(tiles, SMs) workgroups (132 here, the sm_90
// default), and each role loops t = blockIdx.x, + 132, while t < 2048 (B4
// Hkv8, 64 row blocks of 128 merged rows), carrying two counters from 0:
// the key tiles and the Q loads of the workgroup's earlier tiles. A tenth
// mbarrier (256 arrivals: both consumer warpgroups) frees Q's buffer: the
// producer waits for it before each Q but the first, the consumers arrive
// after the loop of a tile's Q·Kᵀ, and release the tile's last V stage too.
// setmaxnreg 56 / 224 (the one-tile kernel's 40 / 232 spill the producer).
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=IR
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/c.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/c.mlir %t/c
// RUN: FileCheck %s --check-prefix=PTX < %t/c/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/c/rock_attention_kernel.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// GQA 8 causal (the prefill benchmark's rows): the producer's loop spilled
// at setmaxnreg 40, hence 56 / 224.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/r8.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/r8.mlir %t/r8
// RUN: %ptxas -arch=sm_90a -v %t/r8/rock_attention_kernel.ptx -o %t/r8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// Non-causal with a key tail (K [d][keys]: 1000 keys) and the LSE; its
// bundle launches 132 workgroups.
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 2048 -seq_len_k 1000 -head_dim_qk 128 -head_dim_v 128 -return_lse --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/n.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/n.mlir %t/n
// RUN: %ptxas -arch=sm_90a -v %t/n/rock_attention_kernel.ptx -o %t/n.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 2048 -seq_len_k 1000 -head_dim_qk 128 -head_dim_v 128 -return_lse --arch sm_90 -pv --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-run --compile-only -o %t/n.bundle
// RUN: FileCheck %s --check-prefix=BUNDLE < %t/n.bundle
// Fewer tiles than SMs (B1 Hkv2 S512: 32 tiles, split 2 ways by the
// internal split): the grid is the 64 tiles, one each.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=FEW
// Where the switch keeps one tile a workgroup (the grid of 2048, nine
// mbarriers at most, no tile loop): consumer ping-pong, no producer
// warpgroup, paged K / V, a head dim above 128, a sliding window (per-row
// first keys).
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false --module-attr rock.gpu_wgmma_pingpong=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false --module-attr rock.gpu_wgmma_producer=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --paged-attention --num-pages 256 --page-size 8192 --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 256 -head_dim_v 256 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false --module-attr rock.gpu_wgmma_pingpong=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal -sliding_window_size 200 --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// Three consumer warpgroups (d 64 MHA, 192 rows): persistent too, 512
// threads, the one-tile kernel's 32 / 160 registers, the tile loop and its
// counters in i32 (as index they spilled 8 bytes); the d 64 prefill row
// (B2 H16 S4k, 704 tiles) without spills.
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 6144 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=CW3
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d64.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d64.mlir %t/d64
// RUN: FileCheck %s --check-prefix=PTX3 < %t/d64/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/d64/rock_attention_kernel.ptx -o %t/d64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d64k.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d64k.mlir %t/d64k
// RUN: %ptxas -arch=sm_90a -v %t/d64k/rock_attention_kernel.ptx -o %t/d64k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// The rule (the switch not given): causal problems take the persistent
// form where planPersist allows it (the launch of 132 and the tile loops,
// the same IR as = true; here with the static tile order,
// rock.gpu_wgmma_dynamic = false: attention-wgmma-dynamic.mlir checks that
// the rule's default takes dynamic tiles), the causal problems it refuses
// keep the one-tile kernel (paged K / V, a sliding window), and non-causal
// ones keep it too (the key-tail case above, and K [keys][d]); = false: the
// one-tile kernel.
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=IR
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --paged-attention --num-pages 256 --page-size 8192 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal -sliding_window_size 200 --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 2048 -seq_len_k 1000 -head_dim_qk 128 -head_dim_v 128 -return_lse --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// A bad value.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=2 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD

// IR: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c132, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c384,
// IR-COUNT-4: nvvm.mbarrier.init {{.*}}, %c1_i32
// IR-COUNT-4: nvvm.mbarrier.init {{.*}}, %c256_i32
// IR: nvvm.mbarrier.init {{.*}}, %c128_i32
// IR: nvvm.mbarrier.init {{.*}}, %c256_i32
// IR-NEXT: nvvm.fence.mbarrier.init
// The producer's tile loop: Q waits for the previous round of the Q-free
// barrier (byte 164936: after the nine of the one-tile kernel), from the
// second Q on.
// IR: nvvm.setmaxregister decrease 56
// IR-NEXT: %{{.*}}:2 = scf.for %[[T:.*]] = %[[BX]] to %c2048 step %c132 iter_args(%[[U:.*]] = %c0, %[[Q:.*]] = %c0) -> (index, index) {
// IR-NEXT: arith.subi %c2047, %[[T]] : index
// IR: memref.view %{{.*}}[%c164936][]
// IR: %[[HAS:.*]] = arith.cmpi uge, %[[Q]], %c1 : index
// IR-NEXT: scf.if %[[HAS]] {
// IR-NEXT: arith.subi %[[Q]], %c1 : index
// IR: nvvm.mbarrier.try_wait.parity
// IR: nvvm.cp.async.mbarrier.arrive {{.*}} {noinc = true}
// K and V of key tile t at the running index u + t - start.
// IR: scf.for %[[KT:.*]] = %[[S:.*]] to %{{.*}} step %c1 {
// IR-NEXT: %[[R:.*]] = arith.subi %[[KT]], %[[S]] : index
// IR-NEXT: arith.addi %[[R]], %[[U]] : index
// IR: nvvm.mbarrier.arrive.expect_tx
// IR: nvvm.mbarrier.arrive.expect_tx
// The counters go on by the tile's key tiles and one Q (none when empty).
// IR: %[[ANY:.*]] = arith.cmpi ult, %[[S]], %[[E:.*]] : index
// IR-NEXT: %[[N:.*]] = arith.subi %[[E]], %[[S]] : index
// IR-NEXT: %[[NN:.*]] = arith.select %[[ANY]], %[[N]], %c0 : index
// IR-NEXT: %[[U1:.*]] = arith.addi %[[U]], %[[NN]] : index
// IR-NEXT: %[[QQ:.*]] = arith.select %[[ANY]], %c1, %c0 : index
// IR-NEXT: %[[Q1:.*]] = arith.addi %[[Q]], %[[QQ]] : index
// IR-NEXT: scf.yield %[[U1]], %[[Q1]] : index, index
// The consumers' tile loop: the first key tile's full K at round u / 2,
// Q's at round q.
// IR: nvvm.setmaxregister increase 224
// IR-NEXT: %{{.*}}:2 = scf.for %[[CT:.*]] = %[[BX]] to %c2048 step %c132 iter_args(%[[CU:.*]] = %c0, %[[CQ:.*]] = %c0) -> (index, index) {
// IR-NEXT: arith.subi %c2047, %[[CT]] : index
// IR: arith.divui %[[CU]], %c2 : index
// IR: nvvm.mbarrier.try_wait.parity
// IR: memref.view %{{.*}}[%c164928][]
// IR: arith.remui %[[CQ]], %c2 : index
// IR: nvvm.mbarrier.try_wait.parity
// After the key loop (every Q·Kᵀ done): the Q-free arrival, then the last
// P·V, then its V stage released.
// IR: scf.yield {{.*}} : f32, f32, f32, f32, vector<64xf32>, i32
// IR-NEXT: }
// IR-NEXT: memref.view %{{.*}}[%c164936][]
// IR: nvvm.mbarrier.arrive
// IR: nvvm.mbarrier.try_wait.parity
// IR: nvvm.wgmma.wait.group.sync.aligned 0
// IR: nvvm.mbarrier.arrive
// IR: scf.yield {{.*}} : index, index
// IR: gpu.terminator

// PTX: .target sm_90a
// PTX: setmaxnreg.dec.sync.aligned.u32 56;
// PTX: setmaxnreg.inc.sync.aligned.u32 224;
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX-NOT: bar.sync

// PTXAS-NOT: Potential Performance Loss
// PTXAS: Compiling entry function 'rock_attention_kernel' for 'sm_90a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: Potential Performance Loss

// BUNDLE: launch 0 rock_attention_kernel grid 132 1 1 block 384 1 1 smem 164944

// FEW: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c384,
// FEW: scf.for %{{.*}} = %[[BX]] to %c64 step %c64 iter_args

// OFF-NOT: = %c132,
// OFF: gpu.launch blocks({{.*}}) in (%{{.*}} = %c{{[0-9]+}}, %{{.*}} = %c1, %{{.*}} = %c1)
// OFF-NOT: %c164936
// OFF-NOT: iter_args({{.*}}) -> (index, index)
// OFF: gpu.terminator

// CW3: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c132, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c512,
// CW3-COUNT-4: nvvm.mbarrier.init {{.*}}, %c1_i32
// CW3-COUNT-4: nvvm.mbarrier.init {{.*}}, %c384_i32
// CW3: nvvm.mbarrier.init {{.*}}, %c128_i32
// CW3: nvvm.mbarrier.init {{.*}}, %c384_i32
// CW3-NEXT: nvvm.fence.mbarrier.init
// CW3: nvvm.setmaxregister decrease 32
// CW3-NEXT: %[[LO:.*]] = arith.index_castui %[[BX]] : index to i32
// CW3-NEXT: %{{.*}}:2 = scf.for %[[T:.*]] = %[[LO]] to %c2048_i32 step %c132_i32 iter_args(%[[U:.*]] = %c0_i32, %[[Q:.*]] = %c0_i32) -> (i32, i32) : i32 {
// CW3-NEXT: arith.index_castui %[[U]] : i32 to index
// CW3-NEXT: arith.index_castui %[[Q]] : i32 to index
// CW3-NEXT: arith.index_castui %[[T]] : i32 to index
// CW3: %[[N:.*]] = arith.index_castui %{{.*}} : index to i32
// CW3-NEXT: %[[U1:.*]] = arith.addi %[[U]], %[[N]] : i32
// CW3: %[[O:.*]] = arith.index_castui %{{.*}} : index to i32
// CW3-NEXT: %[[Q1:.*]] = arith.addi %[[Q]], %[[O]] : i32
// CW3-NEXT: scf.yield %[[U1]], %[[Q1]] : i32, i32
// CW3: nvvm.setmaxregister increase 160
// CW3-NEXT: arith.index_castui %[[BX]] : index to i32
// CW3-NEXT: scf.for {{.*}} -> (i32, i32) : i32 {
// CW3: gpu.terminator

// PTX3: .maxntid 512, 1, 1
// PTX3: setmaxnreg.dec.sync.aligned.u32 32;
// PTX3: setmaxnreg.inc.sync.aligned.u32 160;
// PTX3: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16

// BAD: error: rock.gpu_wgmma_persistent must be true or false
