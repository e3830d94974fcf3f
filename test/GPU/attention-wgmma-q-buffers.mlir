// REQUIRES: cuda-toolkit
// rock.gpu_wgmma_q_buffers = 2 (opt-in; passes/gpu/attention_wgmma.c
// planPersist and tileLoop, docs/gpu-accel.md "The persistent form"): the
// persistent form's Q in two buffers, tile round q in buffer q % 2 for the
// (q / 2)-th time, so that the producer loads the next tile's Q as soon as
// its last K / V of this tile is issued (it waits for the consumers' last
// Q·Kᵀ of round q - 2, not q - 1). d 128 B4 Hkv8 causal: Q 2 x 32 KiB at
// bytes 0 and 32768 (+ the swizzle's pad), K / V from 65536, twelve
// mbarriers from byte 197632: four full K / V (1 arrival), four empty
// (256), FULL_Q of both buffers (128: the producer's cp.async), EMPTY_Q of
// both (256); 197728 bytes of workgroup memory (164944 with one buffer).
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_q_buffers=2 --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=IR
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_q_buffers=2 --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/c.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/c.mlir %t/c
// RUN: FileCheck %s --check-prefix=PTX < %t/c/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/c/rock_attention_kernel.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// GQA 8 causal S 4k (the prefill rows), non-causal persistent with a key
// tail and the LSE, d 64 with two consumer warpgroups: no spills either.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_q_buffers=2 --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/r8.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/r8.mlir %t/r8
// RUN: %ptxas -arch=sm_90a -v %t/r8/rock_attention_kernel.ptx -o %t/r8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 2048 -seq_len_k 1000 -head_dim_qk 128 -head_dim_v 128 -return_lse --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false --module-attr rock.gpu_wgmma_q_buffers=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/n.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/n.mlir %t/n
// RUN: %ptxas -arch=sm_90a -v %t/n/rock_attention_kernel.ptx -o %t/n.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 2048 -seq_len_k 1000 -head_dim_qk 128 -head_dim_v 128 -return_lse --arch sm_90 -pv --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false --module-attr rock.gpu_wgmma_q_buffers=2 \
// RUN:   | rock-run --compile-only -o %t/n.bundle
// RUN: FileCheck %s --check-prefix=BUNDLE < %t/n.bundle
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false --module-attr rock.gpu_wgmma_consumers=2 --module-attr rock.gpu_wgmma_q_buffers=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d64.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d64.mlir %t/d64
// RUN: %ptxas -arch=sm_90a -v %t/d64/rock_attention_kernel.ptx -o %t/d64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// Without the persistent form (non-causal by the rule) one buffer: the
// one-tile kernel, unchanged (nine mbarriers, 164944 bytes).
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_q_buffers=2 --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=ONE
// Three consumer warpgroups (d 64 MHA) keep one buffer (two spilled at
// their 160 / 32 registers): ten mbarriers.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=false --module-attr rock.gpu_wgmma_q_buffers=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=CW3
// Bad values.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_q_buffers=3 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_q_buffers=0 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_q_buffers=true \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD

// IR: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c132, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c384, %{{.*}} = %c1, %{{.*}} = %c1) dynamic_shared_memory_size %c197728_i32
// IR-COUNT-4: nvvm.mbarrier.init {{.*}}, %c1_i32
// IR-COUNT-4: nvvm.mbarrier.init {{.*}}, %c256_i32
// IR-COUNT-2: nvvm.mbarrier.init {{.*}}, %c128_i32
// IR-COUNT-2: nvvm.mbarrier.init {{.*}}, %c256_i32
// IR-NEXT: nvvm.fence.mbarrier.init
// The producer: the buffer b = q % 2, its EMPTY_Q (byte 197712 + 8 b)
// waited at phase q / 2 - 1 from the third Q on, Q stored at 32768 b,
// FULL_Q (197696 + 8 b) arrived on by the copies.
// IR: nvvm.setmaxregister decrease 48
// IR-NEXT: %{{.*}}:2 = scf.for %{{.*}} = %[[BX]] to %c2048 step %c132 iter_args(%{{.*}} = %c0, %[[Q:.*]] = %c0) -> (index, index) {
// IR-NEXT: %[[B:.*]] = arith.remui %[[Q]], %c2 : index
// IR: %[[EO:.*]] = arith.muli %[[B]], %c8 : index
// IR-NEXT: arith.addi %c197712, %[[EO]] : index
// IR: %[[PH:.*]] = arith.divui %[[Q]], %c2 : index
// IR-NEXT: %[[HAS:.*]] = arith.cmpi uge, %[[PH]], %c1 : index
// IR-NEXT: scf.if %[[HAS]] {
// IR-NEXT: arith.subi %[[PH]], %c1 : index
// IR: nvvm.mbarrier.try_wait.parity
// IR: arith.muli %[[B]], %c32768 : index
// IR: %[[FO:.*]] = arith.muli %[[B]], %c8 : index
// IR-NEXT: arith.addi %c197696, %[[FO]] : index
// IR: nvvm.cp.async.mbarrier.arrive {{.*}} {noinc = true}
// IR: nvvm.mbarrier.arrive.expect_tx
// IR: nvvm.mbarrier.arrive.expect_tx
// The consumers: FULL_Q of buffer b waited at phase q / 2, Q's descriptor
// 32768 / 16 = 2048 further in buffer 1, EMPTY_Q of b after the key loop.
// IR: nvvm.setmaxregister increase 232
// IR-NEXT: %{{.*}}:2 = scf.for %{{.*}} = %[[BX]] to %c2048 step %c132 iter_args(%{{.*}} = %c0, %[[CQ:.*]] = %c0) -> (index, index) {
// IR-NEXT: %[[CB:.*]] = arith.remui %[[CQ]], %c2 : index
// IR: %[[CF:.*]] = arith.muli %[[CB]], %c8 : index
// IR-NEXT: arith.addi %c197696, %[[CF]] : index
// IR: %[[CPH:.*]] = arith.divui %[[CQ]], %c2 : index
// IR-NEXT: arith.remui %[[CPH]], %c2 : index
// IR: nvvm.mbarrier.try_wait.parity
// IR-NEXT: %[[CB64:.*]] = arith.index_cast %[[CB]] : index to i64
// IR-NEXT: arith.muli %[[CB64]], %c2048_i64 : i64
// IR: scf.yield {{.*}} : f32, f32, f32, f32, vector<64xf32>, i32
// IR-NEXT: }
// IR-NEXT: %[[CE:.*]] = arith.muli %[[CB]], %c8 : index
// IR-NEXT: arith.addi %c197712, %[[CE]] : index
// IR: nvvm.mbarrier.arrive
// IR: scf.yield {{.*}} : index, index
// IR: gpu.terminator

// PTX: .target sm_90a
// PTX: setmaxnreg.dec.sync.aligned.u32 48;
// PTX: setmaxnreg.inc.sync.aligned.u32 232;

// PTXAS-NOT: Potential Performance Loss
// PTXAS: Compiling entry function 'rock_attention_kernel' for 'sm_90a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: Potential Performance Loss

// BUNDLE: launch 0 rock_attention_kernel grid 132 1 1 block 384 1 1 smem 197728

// ONE: dynamic_shared_memory_size %c164944_i32
// ONE-COUNT-9: nvvm.mbarrier.init
// ONE-NOT: nvvm.mbarrier.init
// ONE-NOT: %c197712

// CW3: threads({{.*}}) in (%{{.*}} = %c512,
// CW3-COUNT-10: nvvm.mbarrier.init
// CW3-NEXT: nvvm.fence.mbarrier.init
// CW3: nvvm.setmaxregister decrease 32

// BAD: error: rock.gpu_wgmma_q_buffers must be an integer in [1, 2]
