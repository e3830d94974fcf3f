// REQUIRES: cuda-toolkit
// The PTX of every kernel assembles for sm_90 with ptxas, without spills;
// ptxas -v records the registers (decode bf16 d128 GQA 4: 128 and 27 when
// this test was written; f32 prefill: 167). The decode keeps its combine as a
// second kernel (rock.gpu_fused_combine = false) so that both assemble.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_combine=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/decode.mlir
// RUN: python3 %rock_src/scripts/gpu_ptx.py %t/decode.mlir %t/decode
// RUN: %ptxas -arch=sm_90 -v %t/decode/rock_attention_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90 -v %t/decode/rock_attention_kernel_0.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t f32 -g 1 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 64 -seq_len_k 64 -head_dim_qk 64 -head_dim_v 64 -causal -return_lse --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/prefill.mlir
// RUN: python3 %rock_src/scripts/gpu_ptx.py %t/prefill.mlir %t/prefill
// RUN: %ptxas -arch=sm_90 -v %t/prefill/rock_attention_kernel.ptx -o %t/p.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// PTXAS: Compiling entry function 'rock_attention_kernel' for 'sm_90'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Used {{[0-9]+}} registers
// A cubin straight from the pipeline (ptxas found through the toolkit).
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 2 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 \
// RUN:   | env PATH=%{fs-src-root}:$(dirname %ptxas):$PATH rock-opt --pass-pipeline='builtin.module(rock-gpu-cubin-pipeline)' | FileCheck %s --check-prefix=CUBIN
// CUBIN: gpu.binary @rock_attention_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, {{.*}}bin = "
