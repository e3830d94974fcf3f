// REQUIRES: cuda-toolkit
// The fused split merge under each fan-in (rock.gpu_fused_fan 8, 16, 32;
// passes/gpu/fused_combine.c): the B 1 decode bench kernels (bench/gpu/
// cases.py decode B1-L8192 / L32768 / L131072, dense) and GQA 8 B 1 L 128k
// (gqa R8-B1-L131072, 8 merged rows: fused when asked, rock.gpu_fused_combine
// = true) without spills (168-214 registers when written). 32 partitions:
// two arrival sites at fan 8 and 16 (two levels), one at 32.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=8 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d8k-8.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d8k-8.mlir %t/d8k-8
// RUN: FileCheck %s --check-prefix=TWOLV < %t/d8k-8/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d8k-8/rock_attention_kernel.ptx -o %t/d8k-8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 32768 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=8 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d32k-8.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d32k-8.mlir %t/d32k-8
// RUN: FileCheck %s --check-prefix=TWOLV < %t/d32k-8/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d32k-8/rock_attention_kernel.ptx -o %t/d32k-8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 131072 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=8 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d128k-8.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d128k-8.mlir %t/d128k-8
// RUN: FileCheck %s --check-prefix=TWOLV < %t/d128k-8/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d128k-8/rock_attention_kernel.ptx -o %t/d128k-8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 131072 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=8 --module-attr rock.gpu_fused_combine=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/g128k-8.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/g128k-8.mlir %t/g128k-8
// RUN: FileCheck %s --check-prefix=TWOLV < %t/g128k-8/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/g128k-8/rock_attention_kernel.ptx -o %t/g128k-8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=16 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d8k-16.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d8k-16.mlir %t/d8k-16
// RUN: FileCheck %s --check-prefix=TWOLV < %t/d8k-16/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d8k-16/rock_attention_kernel.ptx -o %t/d8k-16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 32768 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=16 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d32k-16.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d32k-16.mlir %t/d32k-16
// RUN: FileCheck %s --check-prefix=TWOLV < %t/d32k-16/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d32k-16/rock_attention_kernel.ptx -o %t/d32k-16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 131072 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=16 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d128k-16.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d128k-16.mlir %t/d128k-16
// RUN: FileCheck %s --check-prefix=TWOLV < %t/d128k-16/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d128k-16/rock_attention_kernel.ptx -o %t/d128k-16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 131072 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=16 --module-attr rock.gpu_fused_combine=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/g128k-16.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/g128k-16.mlir %t/g128k-16
// RUN: FileCheck %s --check-prefix=TWOLV < %t/g128k-16/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/g128k-16/rock_attention_kernel.ptx -o %t/g128k-16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=32 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d8k-32.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d8k-32.mlir %t/d8k-32
// RUN: FileCheck %s --check-prefix=ONE < %t/d8k-32/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d8k-32/rock_attention_kernel.ptx -o %t/d8k-32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 32768 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=32 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d32k-32.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d32k-32.mlir %t/d32k-32
// RUN: FileCheck %s --check-prefix=ONE < %t/d32k-32/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d32k-32/rock_attention_kernel.ptx -o %t/d32k-32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 131072 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=32 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d128k-32.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d128k-32.mlir %t/d128k-32
// RUN: FileCheck %s --check-prefix=ONE < %t/d128k-32/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d128k-32/rock_attention_kernel.ptx -o %t/d128k-32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 131072 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_fan=32 --module-attr rock.gpu_fused_combine=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/g128k-32.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/g128k-32.mlir %t/g128k-32
// RUN: FileCheck %s --check-prefix=ONE < %t/g128k-32/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/g128k-32/rock_attention_kernel.ptx -o %t/g128k-32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// ONE: atom.global.add.u32
// ONE-NOT: atom.global
// ONE: ret;
// TWOLV-COUNT-2: atom.global.add.u32
// TWOLV-NOT: atom.global
// TWOLV: ret;
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
