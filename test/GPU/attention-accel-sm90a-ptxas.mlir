// REQUIRES: cuda-toolkit
// --arch sm_90a end to end: rock-gen records it, the pipeline targets
// sm_90a (`.target sm_90a`, with convert-nvvm-to-llvm in the tail) and ptxas
// -arch=sm_90a assembles it without spills: by default with ldmatrix +
// mma.sync for both gemms (the sm_90 kernel), and with rock.gpu_accel_wgmma = true
// with Q·Kᵀ on wgmma (attention-accel-wgmma.mlir; 134 registers, 49152 bytes
// of shared memory when this test was written).
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90a -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d.mlir %t/d
// RUN: FileCheck %s --check-prefix=MMA < %t/d/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/d/rock_attention_kernel.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90a -wgmma=off --module-attr rock.gpu_accel_wgmma=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p.mlir %t/p
// RUN: FileCheck %s --check-prefix=PTX < %t/p/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/p/rock_attention_kernel.ptx -o %t/p.cubin 2>&1 | FileCheck %s
// MMA: .target sm_90a
// MMA-NOT: wgmma
// MMA: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// MMA: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// MMA-NOT: wgmma
// PTX: .target sm_90a
// PTX: fence.proxy.async.shared::cta;
// PTX: wgmma.fence.sync.aligned;
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTX: wgmma.commit_group.sync.aligned;
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK: Compiling entry function 'rock_attention_kernel' for 'sm_90a'
// CHECK: 0 bytes spill stores, 0 bytes spill loads
