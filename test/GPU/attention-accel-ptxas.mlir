// REQUIRES: cuda-toolkit
// The tensor-core attention kernels assemble for sm_90 with ptxas, without
// spills, and hold mma.sync with ldmatrix fragments (.trans for V) and
// cp.async staging: bf16 causal prefill with LSE, f16 multi-token decode,
// bf16 paged prefill (cp.async through the page pointers). ptxas -v when
// this test was written: 157 / 251 / 229 registers (128 with
// rock.gpu_accel_ldmatrix = false), 49152 / 36864 / 49152 bytes of shared memory.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p.mlir %t/p
// RUN: FileCheck %s --check-prefix=BF16 < %t/p/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=LDM < %t/p/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=LDMT < %t/p/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/p/rock_attention_kernel.ptx -o %t/p.cubin 2>&1 | FileCheck %s
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 4 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d.mlir %t/d
// RUN: FileCheck %s --check-prefix=F16 < %t/d/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=LDM < %t/d/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=LDMT < %t/d/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d/rock_attention_kernel.ptx -o %t/d.cubin 2>&1 | FileCheck %s
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --paged-attention --page-size 16 --num-pages 16384 --transK --arch sm_90 -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/g.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/g.mlir %t/g
// RUN: FileCheck %s --check-prefix=BF16 < %t/g/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=LDM < %t/g/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=LDMT < %t/g/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=PAGED < %t/g/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/g/rock_attention_kernel.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// The off switch (rock.gpu_accel_ldmatrix = false: no ldmatrix, no cp.async).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_ldmatrix=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/r.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/r.mlir %t/r
// RUN: FileCheck %s --check-prefix=BF16 < %t/r/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=NOLDM < %t/r/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/r/rock_attention_kernel.ptx -o %t/r.cubin 2>&1 | FileCheck %s
// The one workgroup buffer, 16-byte aligned (rock-gpu-to-binary).
// LDM: .shared .align 16 .b8 __wg_rock_attention_kernel_0[
// LDM: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// LDM: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// LDM: cp.async.commit_group;
// PAGED: ld.global.b32
// PAGED: cvta.to.global.u64
// PAGED-NEXT: cp.async.cg.shared.global
// (wait_group 1 with the K / V overlap of the staging rule: the q-4 decode)
// LDM: cp.async.wait_group {{[01]}};
// LDM-NEXT: bar.sync 0;
// LDMT: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// NOLDM-NOT: ldmatrix
// NOLDM-NOT: cp.async
// BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// BF16: ex2.approx.ftz.f32
// F16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: Compiling entry function 'rock_attention_kernel' for 'sm_90'
// CHECK: 0 bytes spill stores, 0 bytes spill loads
