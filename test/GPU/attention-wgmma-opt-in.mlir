// REQUIRES: cuda-toolkit
// The sm_90a prefill schedule's opt-in switches (passes/gpu/attention_wgmma*.c,
// docs/gpu-accel.md): both off by default, so the kernels of
// test/GPU/attention-wgmma.mlir stay as they are.
//   rock.gpu_wgmma_pingpong: the two consumer warpgroups of the producer form
//     take turns issuing their products at named barriers 1 and 2 (256
//     threads): warpgroup 0 opens with bar.arrive 1, every batch is preceded
//     by bar.sync at the warpgroup's own barrier and followed, once
//     committed, by bar.arrive at the other's (warpgroup 1 skips its last).
//     Without the producer warpgroup the switch does nothing.
//   rock.gpu_wgmma_swizzle128: Q, K and V staged 128-byte swizzled (chunk c of
//     a 128-byte line L at c ^ (L % 8), xor in the copy addresses, the tiles
//     1024-byte aligned at run time: 1 KiB more dynamic workgroup memory),
//     read through descriptors of swizzle mode 1 (their constant part folded
//     with the tile's offset, below 2^16): K-major LBO 16 (unused) / SBO 1024
//     = 4611686293305360384, MN-major (V, and K stored [d][keys]) LBO = 128
//     x the tile's k extent / SBO 1024 (k extent 128: 4611686293372403712);
//     head dims off a multiple of 64 keep the unswizzled layout.
// ptxas when this test was written: 168 registers at entry (setmaxnreg), no
// spills, no C7513, for each d 128 kernel (and every benchmark kernel); the
// swizzled f16 d 64 kernel of a 2 x 1000-key grid (its split key loop
// unrolled) spills 12 bytes in the consumers (none unswizzled), so it is
// checked for its descriptors only.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 --module-attr rock.gpu_wgmma_pingpong=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PPIR
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 --module-attr rock.gpu_wgmma_pingpong=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/pp.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/pp.mlir %t/pp
// RUN: FileCheck %s --check-prefix=PP < %t/pp/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/pp/rock_attention_kernel.ptx -o %t/pp.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// No producer warpgroup, no ping-pong.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_pingpong=true --module-attr rock.gpu_wgmma_producer=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/np.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/np.mlir %t/np
// RUN: FileCheck %s --check-prefix=NOPP < %t/np/rock_attention_kernel.ptx
// The 128-byte swizzle: K [keys][d] (K-major), with ping-pong; K stored
// [d][keys] (MN-major); f16 d 64 with a key tail; d 96: not swizzled.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 --module-attr rock.gpu_wgmma_swizzle128=true --module-attr rock.gpu_wgmma_pingpong=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SWIR
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 --module-attr rock.gpu_wgmma_swizzle128=true --module-attr rock.gpu_wgmma_pingpong=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/sw.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/sw.mlir %t/sw
// RUN: FileCheck %s --check-prefixes=SW,SWK < %t/sw/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=PP < %t/sw/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/sw/rock_attention_kernel.ptx -o %t/sw.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 -causal --arch sm_90 --module-attr rock.gpu_wgmma_swizzle128=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/kt.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/kt.mlir %t/kt
// RUN: FileCheck %s --check-prefixes=SW,SWKT < %t/kt/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/kt/rock_attention_kernel.ptx -o %t/kt.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 256 -seq_len_k 1000 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_swizzle128=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/h.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/h.mlir %t/h
// RUN: FileCheck %s --check-prefix=SW64 < %t/h/rock_attention_kernel.ptx
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 96 -head_dim_v 96 --transK --arch sm_90 --module-attr rock.gpu_wgmma_swizzle128=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d96.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d96.mlir %t/d96
// RUN: FileCheck %s --check-prefix=NOSW < %t/d96/rock_attention_kernel.ptx
// Three consumer warpgroups (d 64) in a ring: warpgroup w hands over to
// barrier 1 + (w + 1) % 3, and the last one skips its last arrival.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_pingpong=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PP3IR
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_pingpong=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/pp3.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/pp3.mlir %t/pp3
// RUN: FileCheck %s --check-prefix=PP3 < %t/pp3/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/pp3/rock_attention_kernel.ptx -o %t/pp3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// The bundle (cp.async staging): 1 KiB more dynamic workgroup memory (163904
// unswizzled).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 -pv --module-attr rock.gpu_wgmma_swizzle128=true --module-attr rock.gpu_wgmma_tma=false \
// RUN:   | rock-run --compile-only -o %t.bundle
// RUN: FileCheck %s --check-prefix=BUNDLE < %t.bundle

// PPIR: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// PPIR: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// PPIR: nvvm.wgmma.fence.aligned
// PPIR: nvvm.wgmma.commit.group.sync.aligned
// PPIR: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// PPIR: nvvm.wgmma.wait.group.sync.aligned 0

// PP: .target sm_90a
// PP: setmaxnreg.inc.sync.aligned.u32 232;
// PP: bar.arrive 1, 256;
// PP: mbarrier.try_wait.parity.shared.b64
// PP: bar.sync {{%r[0-9]+}}, 256;
// PP-NEXT: wgmma.fence.sync.aligned;
// PP: wgmma.commit_group.sync.aligned;
// PP: bar.arrive {{%r[0-9]+}}, 256;
// PP: wgmma.wait_group.sync.aligned 0;
// The loop: both products between the turn and the hand-over.
// PP: bar.sync {{%r[0-9]+}}, 256;
// PP: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// PP: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, {{[{](%r[0-9]+, ){3}%r[0-9]+[}]}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PP: wgmma.commit_group.sync.aligned;
// PP: bar.arrive {{%r[0-9]+}}, 256;
// PP: wgmma.wait_group.sync.aligned 1;
// The last P·V: warpgroup 1 hands over nothing (a branch around the arrive).
// PP: bar.sync {{%r[0-9]+}}, 256;
// PP: wgmma.commit_group.sync.aligned;
// PP-NEXT: @%p{{[0-9]+}} bra
// PP-NEXT: // begin inline asm
// PP-NEXT: bar.arrive {{%r[0-9]+}}, 256;

// PP3IR: %[[R:.*]] = arith.remui %{{.*}}, %c3_i32 : i32
// PP3IR-NEXT: %[[NX:.*]] = arith.addi %[[R]], %c1_i32 : i32
// PP3IR-NEXT: nvvm.barrier.arrive id = %[[NX]] number_of_threads = %{{.*}}
// PP3IR: %[[LAST:.*]] = arith.cmpi ne, %{{.*}}, %c2 : index
// PP3IR-NEXT: scf.if %[[LAST]] {
// PP3IR: nvvm.barrier.arrive id

// PP3: .maxntid 512, 1, 1
// PP3: setmaxnreg.inc.sync.aligned.u32 160;
// PP3: bar.arrive 1, 256;
// PP3: bar.sync {{%r[0-9]+}}, 256;
// PP3-NEXT: wgmma.fence.sync.aligned;
// PP3: bar.arrive {{%r[0-9]+}}, 256;

// NOPP: .target sm_90a
// NOPP-NOT: bar.arrive
// NOPP: wgmma.mma_async
// NOPP-NOT: bar.arrive

// SWIR: dynamic_shared_memory_size
// SWIR: memref.extract_aligned_pointer_as_index
// SWIR: arith.xori {{.*}} : index
// SWIR: vector.store {{.*}} {alignment = 16 : i64, rock.async_copy}
// SWIR: nvvm.wgmma.fence.aligned

// SW: .target sm_90a
// SW: cp.async.cg.shared.global
// SWK: {{(or|add)\.[bs]64}} {{%rd[0-9]+}}, {{%rd[0-9]+}}, 461168629330536{{[0-9][0-9][0-9][0-9]}};
// SWKT: {{(or|add)\.[bs]64}} {{%rd[0-9]+}}, {{%rd[0-9]+}}, 461168629337240{{[0-9][0-9][0-9][0-9]}};
// SWKT: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 1;
// SWK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// SW: {{(or|add)\.[bs]64}} {{%rd[0-9]+}}, {{%rd[0-9]+}}, 461168629337240{{[0-9][0-9][0-9][0-9]}};
// SW: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, {{[{](%r[0-9]+, ){3}%r[0-9]+[}]}}, %rd{{[0-9]+}}, p, 1, 1, 1;

// d 64, 128-key tiles: Q / K blocks of 64 (one per line), V (n 64, k 128):
// LBO 16384.
// SW64: .target sm_90a
// SW64: {{(or|add)\.[bs]64}} {{%rd[0-9]+}}, {{%rd[0-9]+}}, 461168629330536{{[0-9][0-9][0-9][0-9]}};
// SW64: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// SW64: {{(or|add)\.[bs]64}} {{%rd[0-9]+}}, {{%rd[0-9]+}}, 461168629337240{{[0-9][0-9][0-9][0-9]}};
// SW64: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, {{[{](%r[0-9]+, ){3}%r[0-9]+[}]}}, %rd{{[0-9]+}}, p, 1, 1, 1;

// NOSW: .target sm_90a
// NOSW-NOT: 46116862
// NOSW: wgmma.mma_async
// NOSW-NOT: 46116862

// PTXAS-NOT: Potential Performance Loss
// PTXAS: Compiling entry function 'rock_attention_kernel' for 'sm_90a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: Potential Performance Loss

// BUNDLE: launch 0 rock_attention_kernel grid {{[0-9]+}} 1 1 block 384 1 1 smem 164928
