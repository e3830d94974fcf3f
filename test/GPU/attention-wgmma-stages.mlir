// REQUIRES: cuda-toolkit
// rock.gpu_wgmma_stages (opt-in; passes/gpu/attention_wgmma.c planStages,
// attention_wgmma_ws.c; docs/gpu-accel.md "K / V stages"): the producer
// form's K / V in three or four stages, key tile u (the running index) in
// stage u % N for the (u / N)-th time, its full / empty mbarriers k N + s.
// d 128 dense, three stages: Q 32 KiB at 0, K stages at 32768 + 65536 s, V
// at 65536 + 65536 s (+ the swizzle's pad), the 1 KiB of alignment, then
// thirteen mbarriers from byte 230400: three full K, three full V (one
// arrival: expect_tx), three empty K, three empty V (256: both consumer
// warpgroups), FULL_Q (128) at 230496; 230512 bytes of the 232448.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=IR
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d.mlir %t/d
// RUN: FileCheck %s --check-prefix=PTX < %t/d/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/d/rock_attention_kernel.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-run --compile-only -o %t/d.bundle
// RUN: FileCheck %s --check-prefix=BUNDLE < %t/d.bundle
// The perf_config field wgstages sets it too.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --perf-db none -perf_config attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:wgstages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SMEM3
// Paged K / V by TMA, pages of 16 tokens (8 boxes of K and 8 of V a tile,
// one producer thread), non-causal and causal, and pages of 64: the same
// layout; the page-address lanes (rock.gpu_wgmma_tma_paged_lanes = 2) too.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 512 --page-size 2048 --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p16.mlir
// RUN: FileCheck %s --check-prefix=SMEM3 < %t/p16.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p16.mlir %t/p16
// RUN: FileCheck %s --check-prefix=PAGED < %t/p16/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/p16/rock_attention_kernel.ptx -o %t/p16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --paged-attention --num-pages 512 --page-size 2048 --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p16c.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p16c.mlir %t/p16c
// RUN: %ptxas -arch=sm_90a -v %t/p16c/rock_attention_kernel.ptx -o %t/p16c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --paged-attention --num-pages 128 --page-size 8192 --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p64.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p64.mlir %t/p64
// RUN: %ptxas -arch=sm_90a -v %t/p64/rock_attention_kernel.ptx -o %t/p64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --paged-attention --num-pages 512 --page-size 2048 --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 --module-attr rock.gpu_wgmma_tma_paged_lanes=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/pl2.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/pl2.mlir %t/pl2
// RUN: %ptxas -arch=sm_90a -v %t/pl2/rock_attention_kernel.ptx -o %t/pl2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// K and V by the producer's cp.async (rock.gpu_wgmma_tma = false): full
// barriers of 128 arrivals, no FULL_Q (230496 bytes).
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 --module-attr rock.gpu_wgmma_tma=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/cp.mlir
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 --module-attr rock.gpu_wgmma_tma=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=CPASYNC
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/cp.mlir %t/cp
// RUN: %ptxas -arch=sm_90a -v %t/cp/rock_attention_kernel.ptx -o %t/cp.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// d 64, three consumer warpgroups (192 rows: Q 24 KiB, K / V tiles 16 KiB):
// three stages 124016 bytes, four 156816 (barriers from 123904 / 156672;
// empty ones of 384 arrivals).
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d64.mlir
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=D64S3
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d64.mlir %t/d64
// RUN: %ptxas -arch=sm_90a -v %t/d64/rock_attention_kernel.ptx -o %t/d64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d64s4.mlir
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=D64S4
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d64s4.mlir %t/d64s4
// RUN: %ptxas -arch=sm_90a -v %t/d64s4/rock_attention_kernel.ptx -o %t/d64s4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// Persistent causal (dynamic tiles by rule): the stage and round from the
// running index the tile rounds carry; FULL_Q (129) and EMPTY_Q (256)
// after the twelve, the tile slots after them: 230520 bytes. The static
// loop, and three consumer warpgroups at d 64 (its i32 counters) too.
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PST
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/pst.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/pst.mlir %t/pst
// RUN: %ptxas -arch=sm_90a -v %t/pst/rock_attention_kernel.ptx -o %t/pst.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 4 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 --module-attr rock.gpu_wgmma_dynamic=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/pss.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/pss.mlir %t/pss
// RUN: %ptxas -arch=sm_90a -v %t/pss/rock_attention_kernel.ptx -o %t/pss.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_persistent=true --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p3.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p3.mlir %t/p3
// RUN: %ptxas -arch=sm_90a -v %t/p3/rock_attention_kernel.ptx -o %t/p3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// Where the stages asked for do not fit 227 KiB, two (the rule's): d 256
// with three (Q 64 KiB, 64 KiB a stage), d 128 with four; without the
// producer form (rock.gpu_wgmma_producer = false) two as well. The tuning
// space's wgstages candidates drop out there (the plan line is the
// heuristic's).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 256 -head_dim_v 256 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=WIDE
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=TWO
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 2048 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=3 --module-attr rock.gpu_wgmma_producer=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=NOWS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --emit-tuning-space=quick -v 2>&1 | FileCheck %s --check-prefix=TUNE128
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --emit-tuning-space=quick -v 2>&1 | FileCheck %s --check-prefix=TUNE64
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 256 -head_dim_v 256 --transK --arch sm_90 --emit-tuning-space=quick -v 2>&1 | FileCheck %s --check-prefix=TUNE256
// Bad values: 5, 1, not an integer.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=5 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=1 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_stages=true \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --perf-db none -perf_config attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:wgstages=5 2>&1 | FileCheck %s --check-prefix=BADPC

// IR: dynamic_shared_memory_size %c230512_i32
// IR-COUNT-6: nvvm.mbarrier.init {{.*}}, %c1_i32
// IR-COUNT-6: nvvm.mbarrier.init {{.*}}, %c256_i32
// IR-NEXT: memref.view {{.*}}[%c230496]
// IR: nvvm.mbarrier.init {{.*}}, %c128_i32
// IR-NEXT: nvvm.fence.mbarrier.init
// The producer's copying thread: u = t - start, stage s = u % 3 and round
// n = u / 3 (i32); EMPTY_K[s] (230448 + 8 s) waited at phase n - 1 from
// round 1 on, FULL_K[s] (230400 + 8 s) expects the 32 KiB, K copied to
// 32768 + 65536 s; V likewise (230472, 230424; 65536 + 65536 s).
// IR: nvvm.setmaxregister decrease 40
// IR: scf.for %[[T:.*]] = %[[START:.*]] to %{{.*}} step %c1 {
// IR-NEXT: %[[U:.*]] = arith.subi %[[T]], %[[START]] : index
// IR-NEXT: %[[U32:.*]] = arith.index_castui %[[U]] : index to i32
// IR-NEXT: %[[S32:.*]] = arith.remui %[[U32]], %c3_i32 : i32
// IR-NEXT: %[[S:.*]] = arith.index_castui %[[S32]] : i32 to index
// IR-NEXT: %[[UN:.*]] = arith.index_castui %[[U]] : index to i32
// IR-NEXT: %[[N32:.*]] = arith.divui %[[UN]], %c3_i32 : i32
// IR-NEXT: %[[N:.*]] = arith.index_castui %[[N32]] : i32 to index
// IR: %[[EK:.*]] = arith.muli %[[S]], %c8 : index
// IR-NEXT: arith.addi %c230448, %[[EK]] : index
// IR: arith.cmpi uge, %[[N]], %c1 : index
// IR-NEXT: scf.if
// IR-NEXT: arith.subi %[[N]], %c1 : index
// IR: nvvm.mbarrier.try_wait.parity
// IR: %[[FK:.*]] = arith.muli %[[S]], %c8 : index
// IR-NEXT: arith.addi %c230400, %[[FK]] : index
// IR: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// IR-NEXT: %[[KO:.*]] = arith.muli %[[S]], %c65536 : index
// IR-NEXT: arith.addi %c32768, %[[KO]] : index
// IR: nvvm.cp.async.bulk.tensor.shared.cluster.global
// IR: %[[EV:.*]] = arith.muli %[[S]], %c8 : index
// IR-NEXT: arith.addi %c230472, %[[EV]] : index
// IR: %[[FV:.*]] = arith.muli %[[S]], %c8 : index
// IR-NEXT: arith.addi %c230424, %[[FV]] : index
// IR: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// IR-NEXT: %[[VO:.*]] = arith.muli %[[S]], %c65536 : index
// IR-NEXT: arith.addi %c65536, %[[VO]] : index
// The consumers' key loop: K(u) in stage u % 3 and V(u - 1) in (u - 1) % 3,
// FULL_K waited at phase u / 3, FULL_V at (u - 1) / 3, the K descriptor
// 65536 / 16 = 4096 further a stage; EMPTY_K[u % 3], EMPTY_V[(u - 1) % 3].
// IR: nvvm.setmaxregister increase 232
// IR: scf.for %[[KT:.*]] = %{{.*}} to %{{.*}} step %c1 iter_args(
// IR-NEXT: %[[CU:.*]] = arith.subi %[[KT]], %{{.*}} : index
// IR-NEXT: %[[CUP:.*]] = arith.subi %[[CU]], %c1 : index
// IR-NEXT: %[[A:.*]] = arith.index_castui %[[CU]] : index to i32
// IR-NEXT: %[[B:.*]] = arith.remui %[[A]], %c3_i32 : i32
// IR-NEXT: %[[ST:.*]] = arith.index_castui %[[B]] : i32 to index
// IR-NEXT: %[[C:.*]] = arith.index_castui %[[CUP]] : index to i32
// IR-NEXT: %[[D:.*]] = arith.remui %[[C]], %c3_i32 : i32
// IR-NEXT: %[[SP:.*]] = arith.index_castui %[[D]] : i32 to index
// IR: arith.addi %c230400,
// IR: arith.divui %{{.*}}, %c3_i32 : i32
// IR: nvvm.mbarrier.try_wait.parity
// IR: arith.addi %c230424,
// IR: arith.divui %{{.*}}, %c3_i32 : i32
// IR: nvvm.mbarrier.try_wait.parity
// IR: %[[ST64:.*]] = arith.index_cast %[[ST]] : index to i64
// IR-NEXT: arith.muli %[[ST64]], %c4096_i64 : i64
// IR: %[[RK:.*]] = arith.muli %[[ST]], %c8 : index
// IR-NEXT: arith.addi %c230448, %[[RK]] : index
// IR: nvvm.mbarrier.arrive
// IR: %[[RV:.*]] = arith.muli %[[SP]], %c8 : index
// IR-NEXT: arith.addi %c230472, %[[RV]] : index
// IR: nvvm.mbarrier.arrive
// IR: scf.yield

// PTX: .target sm_90a
// PTX: mbarrier.init.shared.b64 [__dynamic_shmem__0+230400], [[ONE:%r[0-9]+]];
// PTX: mbarrier.init.shared.b64 [__dynamic_shmem__0+230440], [[ONE]];
// PTX: mbarrier.init.shared.b64 [__dynamic_shmem__0+230448], [[ALL:%r[0-9]+]];
// PTX: mbarrier.init.shared.b64 [__dynamic_shmem__0+230488], [[ALL]];
// PTX: mbarrier.init.shared.b64 [__dynamic_shmem__0+230496], %r{{[0-9]+}};
// PTX-NOT: mbarrier.init
// PTX: fence.mbarrier_init.release.cluster;
// PTX: setmaxnreg.dec.sync.aligned.u32 40;
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: setmaxnreg.inc.sync.aligned.u32 232;

// BUNDLE: launch 0 rock_attention_kernel grid {{[0-9]+}} 1 1 block 384 1 1 smem 230512

// SMEM3: dynamic_shared_memory_size %c230512_i32

// PAGED: mbarrier.init.shared.b64 [__dynamic_shmem__0+230496], %r{{[0-9]+}};
// PAGED-NOT: mbarrier.init
// PAGED: setmaxnreg.dec.sync.aligned.u32 40;
// PAGED-COUNT-8: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes

// CPASYNC: dynamic_shared_memory_size %c230496_i32
// CPASYNC-COUNT-6: nvvm.mbarrier.init {{.*}}, %c128_i32
// CPASYNC-COUNT-6: nvvm.mbarrier.init {{.*}}, %c256_i32
// CPASYNC-NOT: nvvm.mbarrier.init
// CPASYNC: nvvm.cp.async.mbarrier.arrive

// D64S3: dynamic_shared_memory_size %c124016_i32
// D64S3-COUNT-6: nvvm.mbarrier.init {{.*}}, %c1_i32
// D64S3-COUNT-6: nvvm.mbarrier.init {{.*}}, %c384_i32
// D64S3-NEXT: memref.view {{.*}}[%c124000]
// D64S3: nvvm.mbarrier.init {{.*}}, %c128_i32
// D64S3-NEXT: nvvm.fence.mbarrier.init
// D64S4: dynamic_shared_memory_size %c156816_i32
// D64S4-COUNT-8: nvvm.mbarrier.init {{.*}}, %c1_i32
// D64S4-COUNT-8: nvvm.mbarrier.init {{.*}}, %c384_i32
// D64S4-NEXT: memref.view {{.*}}[%c156800]
// D64S4: nvvm.mbarrier.init {{.*}}, %c128_i32
// D64S4-NEXT: nvvm.fence.mbarrier.init
// (four stages: a mask and a shift, no i32 division)
// D64S4-NOT: %c3_i32
// D64S4: arith.remui %{{.*}}, %c4 : index
// D64S4: arith.divui %{{.*}}, %c4 : index

// PST: dynamic_shared_memory_size %c230520_i32
// PST-COUNT-6: nvvm.mbarrier.init {{.*}}, %c1_i32
// PST-COUNT-6: nvvm.mbarrier.init {{.*}}, %c256_i32
// PST-NEXT: memref.view {{.*}}[%c230496]
// PST: nvvm.mbarrier.init {{.*}}, %c129_i32
// PST-NEXT: memref.view {{.*}}[%c230504]
// PST: nvvm.mbarrier.init {{.*}}, %c256_i32
// PST-NEXT: nvvm.fence.mbarrier.init
// The producer: the key tiles of the earlier tiles (%[[UB]]) added to u.
// PST: nvvm.setmaxregister decrease 56
// PST: scf.while (%{{.*}} = %c0, %{{.*}} = %c0, %{{.*}} = %{{.*}}) : (index, index, i32)
// PST: ^bb0(%[[UB:.*]]: index, %{{.*}}: index, %{{.*}}: i32):
// PST: scf.for %[[PT:.*]] = %[[PS:.*]] to %{{.*}} step %c1 iter_args(
// PST-NEXT: %[[PU0:.*]] = arith.subi %[[PT]], %[[PS]] : index
// PST-NEXT: %[[PU:.*]] = arith.addi %[[PU0]], %[[UB]] : index
// PST-NEXT: %[[PU32:.*]] = arith.index_castui %[[PU]] : index to i32
// PST-NEXT: arith.remui %[[PU32]], %c3_i32 : i32
// PST: arith.divui %{{.*}}, %c3_i32 : i32
// PST: arith.addi %c230448,
// PST: arith.addi %c230400,
// PST: nvvm.setmaxregister increase 224

// WIDE: dynamic_shared_memory_size %c197712_i32
// WIDE-COUNT-4: nvvm.mbarrier.init {{.*}}, %c1_i32
// WIDE-COUNT-4: nvvm.mbarrier.init {{.*}}, %c256_i32
// WIDE-NEXT: memref.view
// WIDE-NEXT: memref.extract_aligned_pointer_as_index
// WIDE-NEXT: arith.index_cast
// WIDE-NEXT: llvm.inttoptr
// WIDE-NEXT: nvvm.mbarrier.init {{.*}}, %c128_i32
// WIDE-NOT: %c3_i32

// TWO: dynamic_shared_memory_size %c164944_i32
// TWO-COUNT-4: nvvm.mbarrier.init {{.*}}, %c1_i32
// TWO-NOT: nvvm.mbarrier.init {{.*}}, %c1_i32
// TWO-COUNT-4: nvvm.mbarrier.init {{.*}}, %c256_i32
// TWO-NOT: nvvm.mbarrier.init {{.*}}, %c256_i32
// TWO: nvvm.mbarrier.init {{.*}}, %c128_i32
// TWO-NEXT: nvvm.fence.mbarrier.init

// NOWS: threads({{.*}}) in (%{{.*}} = %c256,
// NOWS-NOT: nvvm.mbarrier.init
// NOWS-NOT: %c3_i32
// NOWS: nvvm.cp.async.commit.group

// TUNE128: # heuristic: wgmma warpgroups 2 rows 128 keys 128 producer 1
// TUNE128-NOT: stages 3
// TUNE128: {{^}}attn:v3:{{[0-9,]+}}:rock:wgstages=3{{[[:space:]]}}wgmma warpgroups 2 rows 128 keys 128 producer 1 {{.*}} stages 3{{$}}
// TUNE128-NOT: wgstages=4
// TUNE64: # heuristic: wgmma warpgroups 3 rows 192 keys 128 producer 1
// TUNE64: {{^}}attn:v3:{{[0-9,]+}}:rock:wgstages=3{{[[:space:]]}}wgmma warpgroups 3 rows 192 keys 128 producer 1 {{.*}} stages 3{{$}}
// TUNE64: {{^}}attn:v3:{{[0-9,]+}}:rock:wgstages=4{{[[:space:]]}}wgmma warpgroups 3 rows 192 keys 128 producer 1 {{.*}} stages 4{{$}}
// TUNE256: # heuristic: wgmma warpgroups 2 rows 128 keys 64 producer 1
// TUNE256-NOT: wgstages

// PTXAS-NOT: Potential Performance Loss
// PTXAS: Compiling entry function 'rock_attention_kernel' for 'sm_90a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: Potential Performance Loss

// BAD: error: rock.gpu_wgmma_stages must be an integer in [2, 4]
// BADPC: error: invalid perf_config 'attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:wgstages=5': rock field wgstages must be an integer in [2, 4], got '5'
