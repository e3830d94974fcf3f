// REQUIRES: cuda-toolkit
// rock.gpu_wgmma_dynamic = true (opt-in; passes/gpu/attention_wgmma_dyn.c,
// tileLoop / dynLoop in attention_wgmma.c, the tile rounds of
// attention_wgmma_ws.c; docs/gpu-accel.md "The persistent form"): the
// persistent form's workgroups take tile blockIdx.x first, then 132 +
// atomicAdd(counter, 1) until that is >= the tile count. The producer's
// copying thread fetches once a tile (at its last key tile), stores the
// index into slot q % 2 (byte 164944 + 4 (q % 2), after the ten
// mbarriers) before its arrival on FULL_Q (129 arrivals: its own and the
// 128 cp.async ones), the producer warpgroup meets at named barrier 1 and
// loads it; the consumers load it after their wait for FULL_Q. After its
// last round the copying thread counts its workgroup done (counter [1]) and
// the last of the 132 puts both back to zero. The counters: a zero_init
// scratch of two i32 (`scratch 8 zero` in the bundle). d 128 B4 Hkv8
// causal: 164952 bytes of workgroup memory (164944 + the slots).
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=IR
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/c.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/c.mlir %t/c
// RUN: FileCheck %s --check-prefix=PTX < %t/c/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/c/rock_attention_kernel.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 -pv --module-attr rock.gpu_wgmma_dynamic=true \
// RUN:   | rock-run --compile-only -o %t/c.bundle
// RUN: FileCheck %s --check-prefix=BUNDLE < %t/c.bundle
// Two Q buffers: slot q % 2 is buffer q % 2's, FULL_Q / EMPTY_Q of both.
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=true --module-attr rock.gpu_wgmma_q_buffers=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=Q2
// The bench kernels: bf16 GQA 8 S 4k causal and non-causal (with pst), f16
// GQA 4 causal, f16 MHA non-causal with a key tail and the LSE, one and two
// Q buffers; d 64 with three consumer warpgroups (pst; counters in i32);
// an internal split whose splits past the causal keys are empty tiles
// (fetched at once): no spills.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/r8.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/r8.mlir %t/r8
// RUN: %ptxas -arch=sm_90a -v %t/r8/rock_attention_kernel.ptx -o %t/r8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=true --module-attr rock.gpu_wgmma_q_buffers=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/n8.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/n8.mlir %t/n8
// RUN: %ptxas -arch=sm_90a -v %t/n8/rock_attention_kernel.ptx -o %t/n8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t f16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=true --module-attr rock.gpu_wgmma_q_buffers=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/f4.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/f4.mlir %t/f4
// RUN: %ptxas -arch=sm_90a -v %t/f4/rock_attention_kernel.ptx -o %t/f4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 2048 -seq_len_k 1000 -head_dim_qk 128 -head_dim_v 128 -return_lse --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/fm.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/fm.mlir %t/fm
// RUN: %ptxas -arch=sm_90a -v %t/fm/rock_attention_kernel.ptx -o %t/fm.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_dynamic=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d64.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d64.mlir %t/d64
// RUN: FileCheck %s --check-prefix=PTX3 < %t/d64/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/d64/rock_attention_kernel.ptx -o %t/d64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 -causal -split_kv 4 -return_lse --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/s4.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/s4.mlir %t/s4
// RUN: FileCheck %s --check-prefix=EMPTY < %t/s4/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/s4/rock_attention_kernel.ptx -o %t/s4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// Where the persistent form is off (non-causal by its rule, ping-pong) the
// switch changes nothing: the one-tile kernel, no counters.
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=true --module-attr rock.gpu_wgmma_pingpong=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// Not given, the rule turns it on wherever the persistent form is (causal
// problems here): the PTX byte for byte that of = true. Switched off
// (false) the kernel is that of the static persistent form.
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/f.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/f.mlir %t/f
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d.mlir %t/d
// RUN: cmp %t/c/rock_attention_kernel.ptx %t/d/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=STATIC < %t/f/rock_attention_kernel.ptx
// Bad values.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=2 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_dynamic=1 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD

// IR: %[[CNT:.*]] = memref.alloc() {alignment = 64 : i64, rock.zero_init} : memref<2xi32>
// IR-NEXT: gpu.launch blocks(%[[BX:[^,]*]], {{.*}} in (%{{.*}} = %c132, {{.*}} dynamic_shared_memory_size %c164952_i32
// IR-COUNT-4: nvvm.mbarrier.init {{.*}}, %c1_i32
// IR-COUNT-4: nvvm.mbarrier.init {{.*}}, %c256_i32
// IR-NEXT: memref.view
// IR: nvvm.mbarrier.init {{.*}}, %c129_i32
// IR: nvvm.mbarrier.init {{.*}}, %c256_i32
// IR-NEXT: nvvm.fence.mbarrier.init
// The producer: the rounds carry the fetched tile (first blockIdx.x); the
// round opens with EMPTY_Q (byte 164936) waited for, the slot stored by the
// copying thread and FULL_Q (164928) arrived on, the named barrier, the
// slot loaded for everyone; >= 2048 tiles ends it.
// IR: nvvm.setmaxregister decrease 56
// IR-NEXT: %[[B32:.*]] = arith.index_castui %[[BX]] : index to i32
// IR-NEXT: %{{.*}}:3 = scf.while (%{{.*}} = %c0, %[[Q:.*]] = %c0, %[[F:.*]] = %[[B32]]) : (index, index, i32) -> (index, index, i32) {
// IR-NEXT: %[[SV:.*]] = memref.view %{{.*}}[%c164944][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xi32, #gpu.address_space<workgroup>>
// IR-NEXT: %[[AT:.*]] = arith.remui %[[Q]], %c2 : index
// IR-NEXT: memref.view %{{.*}}[%c164936][]
// IR: nvvm.mbarrier.try_wait.parity
// IR: scf.if
// IR-NEXT: memref.store %[[F]], %[[SV]][%[[AT]]] : memref<2xi32, #gpu.address_space<workgroup>>
// IR-NEXT: memref.view %{{.*}}[%c164928][]
// IR: nvvm.mbarrier.arrive
// IR-NEXT: }
// IR-NEXT: nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
// IR-NEXT: %[[T:.*]] = memref.load %[[SV]][%[[AT]]]
// IR-NEXT: %[[MORE:.*]] = arith.cmpi ult, %[[T]], %c2048_i32 : i32
// IR-NEXT: scf.condition(%[[MORE]]) %{{.*}}, %{{.*}}, %[[T]] : index, index, i32
// IR-NEXT: } do {
// The tile: Q copied, the 128 arrivals on FULL_Q, the copying thread's key
// tiles with the fetch at the last one (132 + the counter's old value),
// every round counted.
// IR: nvvm.cp.async.mbarrier.arrive {{.*}} {noinc = true}
// IR: memref.atomic_rmw addi %c1_i32, %[[CNT]][%c0] : (i32, memref<2xi32>) -> i32
// IR: scf.for
// IR: %[[OLD:.*]] = memref.atomic_rmw addi %c1_i32, %[[CNT]][%c0] : (i32, memref<2xi32>) -> i32
// IR-NEXT: arith.addi %[[OLD]], %c132_i32 : i32
// IR: nvvm.mbarrier.arrive.expect_tx
// IR: nvvm.mbarrier.arrive.expect_tx
// IR: arith.addi %{{.*}}, %c1 : index
// IR-NEXT: scf.yield {{.*}} : index, index, i32
// After the last round: its arrivals, the count of workgroups done, the
// reset by the last.
// IR: nvvm.cp.async.mbarrier.arrive {{.*}} {noinc = true}
// IR: llvm.call_intrinsic "llvm.nvvm.membar.gl"
// IR-NEXT: %[[DONE:.*]] = memref.atomic_rmw addi %c1_i32, %[[CNT]][%c1]
// IR-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[DONE]], %c131_i32 : i32
// IR-NEXT: scf.if %[[LAST]] {
// IR-NEXT: llvm.call_intrinsic "llvm.nvvm.membar.gl"
// IR-NEXT: memref.store %c0_i32, %[[CNT]][%c0] : memref<2xi32>
// IR-NEXT: memref.store %c0_i32, %[[CNT]][%c1] : memref<2xi32>
// The consumers: FULL_Q waited for, the slot loaded; an empty tile's
// EMPTY_Q arrival.
// IR: nvvm.setmaxregister increase 224
// IR-NEXT: %{{.*}}:3 = scf.while (%{{.*}} = %c0, %{{.*}} = %c0) : (index, index) -> (index, index, i32) {
// IR-NEXT: %[[CV:.*]] = memref.view %{{.*}}[%c164944][]
// IR: memref.view %{{.*}}[%c164928][]
// IR: nvvm.mbarrier.try_wait.parity
// IR-NEXT: %[[CT:.*]] = memref.load %[[CV]]
// IR-NEXT: %[[CM:.*]] = arith.cmpi ult, %[[CT]], %c2048_i32 : i32
// IR-NEXT: scf.condition(%[[CM]])
// IR: %[[NONE:.*]] = arith.cmpi uge,
// IR-NEXT: scf.if %[[NONE]] {
// IR-NEXT: memref.view %{{.*}}[%c164936][]
// IR: nvvm.mbarrier.arrive
// IR: gpu.terminator
// IR: memref.dealloc %[[CNT]] : memref<2xi32>

// The producer's PTX, the slot stored, then FULL_Q arrived on, then the
// named barrier and the load; one fetch site in the key loop (no empty
// tiles here); then the consumers' load of the slot after their wait for
// FULL_Q. The producer's end (laid out last, RESET): the count after the
// last round's arrivals, the reset. Two atomics in all (ATOMS).
// RUN: FileCheck %s --check-prefix=RESET < %t/c/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=ATOMS < %t/c/rock_attention_kernel.ptx
// PTX: .target sm_90a
// PTX: setmaxnreg.dec.sync.aligned.u32 56;
// PTX: st.shared.b32 [%rd{{[0-9]+}}+164944], %r{{[0-9]+}};
// PTX-NEXT: mbarrier.arrive.shared.b64 {{.*}}, [__dynamic_shmem__0+164928];
// PTX-NEXT: $L__BB
// PTX-NEXT: bar.sync 1, 128;
// PTX-NEXT: ld.shared.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}+164944];
// PTX-NOT: atom.global
// PTX: atom.global.add.u32 [[OLD:%r[0-9]+]], [%rd{{[0-9]+}}], 1;
// PTX-NEXT: add.s32 %r{{[0-9]+}}, [[OLD]], 132;
// PTX-NOT: atom.global
// PTX: setmaxnreg.inc.sync.aligned.u32 224;
// PTX-NOT: atom.global
// PTX: mbarrier.try_wait.parity.shared.b64 P1, [%r{{[0-9]+}}], %r{{[0-9]+}}, 10000000;
// PTX: DONE:
// PTX-NEXT: }
// PTX-NEXT: // end inline asm
// PTX-NEXT: ld.shared.b32 %r{{[0-9]+}}, [__dynamic_shmem__0+164944];

// RESET: membar.gl;
// RESET-NEXT: atom.global.add.u32 [[DONE:%r[0-9]+]], [[[CNT:%rd[0-9]+]]+4], 1;
// RESET-NEXT: setp.ne.b32 %p{{[0-9]+}}, [[DONE]], 131;
// RESET-NEXT: @%p{{[0-9]+}} bra
// RESET-NEXT: membar.gl;
// RESET-NEXT: st.global.b32 [[[CNT]]], 0;
// RESET-NEXT: st.global.b32 [[[CNT]]+4], 0;

// ATOMS-COUNT-2: atom.global.add.u32
// ATOMS-NOT: atom.global

// PTX3: setmaxnreg.dec.sync.aligned.u32 32;
// PTX3: atom.global.add.u32
// PTX3: setmaxnreg.inc.sync.aligned.u32 160;

// Empty tiles (splits past the causal keys): a second fetch site, at once.
// EMPTY: setmaxnreg.dec.sync.aligned.u32 56;
// EMPTY-COUNT-2: atom.global.add.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], 1;
// EMPTY-NOT: atom.global
// EMPTY: setmaxnreg.inc.sync.aligned.u32 224;
// EMPTY-NOT: atom.global
// EMPTY: atom.global.add.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}+4], 1;
// EMPTY-NOT: atom.global

// PTXAS-NOT: Potential Performance Loss
// PTXAS: Compiling entry function 'rock_attention_kernel' for 'sm_90a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: Potential Performance Loss

// BUNDLE: function rock_attention 4
// BUNDLE: arg 3 bf16 33554432
// BUNDLE-NEXT: scratch 8 zero
// BUNDLE-NEXT: tensor_map
// BUNDLE: launch 0 rock_attention_kernel grid 132 1 1 block 384 1 1 smem 164952

// Q2: dynamic_shared_memory_size %c197736_i32
// Q2-COUNT-2: nvvm.mbarrier.init {{.*}}, %c129_i32
// Q2-COUNT-2: nvvm.mbarrier.init {{.*}}, %c256_i32
// Q2: nvvm.setmaxregister decrease 48
// Q2-NEXT: arith.index_castui
// Q2-NEXT: scf.while (%{{.*}} = %c0, %[[Q:.*]] = %c0, %{{.*}} = %{{.*}}) : (index, index, i32)
// Q2-NEXT: %[[B:.*]] = arith.remui %[[Q]], %c2 : index
// Q2-NEXT: memref.view %{{.*}}[%c197728][]
// Q2: memref.store %{{.*}}, %{{.*}}[%[[B]]]
// Q2: nvvm.setmaxregister increase 232

// OFF-NOT: rock.zero_init
// OFF-NOT: scf.while
// OFF: gpu.launch
// OFF-NOT: nvvm.mbarrier.init {{.*}}, %c129_i32
// OFF-NOT: scf.while
// OFF-NOT: memref.atomic_rmw

// STATIC-NOT: atom.global
// STATIC-NOT: bar.sync 1, 128;

// BAD: error: rock.gpu_wgmma_dynamic must be true or false
