// REQUIRES: cuda-toolkit
// Key warps (rock.gpu_accel_key_warps = 2 / 4, attention-accel-key-warps.mlir)
// on the decode bench kernels (bench/gpu/cases.py): ptxas without spills.
// Registers when written (kw2 / kw4): B 1 L 32k and 128k 212 / 191; B 8 L 8k
// 168 / 199; R 8 B 8 L 32k 168 / 203; paged, 16 tokens a page, B 8 L 8k
// 255 / 168; rocMLIR's default K layout B 8 L 8k 166 / 198.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_k 32768 --transK --module-attr rock.gpu_accel_key_warps=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/l32k2.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/l32k2.mlir %t/l32k2
// RUN: FileCheck %s --check-prefix=KW2 < %t/l32k2/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/l32k2/rock_attention_kernel.ptx -o %t/l32k2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_k 32768 --transK --module-attr rock.gpu_accel_key_warps=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/l32k4.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/l32k4.mlir %t/l32k4
// RUN: FileCheck %s --check-prefix=KW4 < %t/l32k4/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/l32k4/rock_attention_kernel.ptx -o %t/l32k4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_k 131072 --transK --module-attr rock.gpu_accel_key_warps=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/l128k2.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/l128k2.mlir %t/l128k2
// RUN: FileCheck %s --check-prefix=KW2 < %t/l128k2/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/l128k2/rock_attention_kernel.ptx -o %t/l128k2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_k 131072 --transK --module-attr rock.gpu_accel_key_warps=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/l128k4.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/l128k4.mlir %t/l128k4
// RUN: FileCheck %s --check-prefix=KW4 < %t/l128k4/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/l128k4/rock_attention_kernel.ptx -o %t/l128k4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_k 8192 --transK --module-attr rock.gpu_accel_key_warps=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/b82.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/b82.mlir %t/b82
// RUN: FileCheck %s --check-prefix=KW2 < %t/b82/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/b82/rock_attention_kernel.ptx -o %t/b82.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_k 8192 --transK --module-attr rock.gpu_accel_key_warps=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/b84.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/b84.mlir %t/b84
// RUN: FileCheck %s --check-prefix=KW4 < %t/b84/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/b84/rock_attention_kernel.ptx -o %t/b84.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 8 -num_heads_q 64 -num_heads_kv 8 -seq_len_k 32768 --transK --module-attr rock.gpu_accel_key_warps=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/r82.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/r82.mlir %t/r82
// RUN: FileCheck %s --check-prefix=KW2 < %t/r82/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/r82/rock_attention_kernel.ptx -o %t/r82.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 8 -num_heads_q 64 -num_heads_kv 8 -seq_len_k 32768 --transK --module-attr rock.gpu_accel_key_warps=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/r84.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/r84.mlir %t/r84
// RUN: FileCheck %s --check-prefix=KW4 < %t/r84/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/r84/rock_attention_kernel.ptx -o %t/r84.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_k 8192 --paged-attention --num-pages 4096 --page-size 2048 --module-attr rock.gpu_accel_key_warps=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p162.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p162.mlir %t/p162
// RUN: FileCheck %s --check-prefix=KW2 < %t/p162/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/p162/rock_attention_kernel.ptx -o %t/p162.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_k 8192 --paged-attention --num-pages 4096 --page-size 2048 --module-attr rock.gpu_accel_key_warps=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p164.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p164.mlir %t/p164
// RUN: FileCheck %s --check-prefix=KW4 < %t/p164/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/p164/rock_attention_kernel.ptx -o %t/p164.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_k 8192 --module-attr rock.gpu_accel_key_warps=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/kmaj2.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/kmaj2.mlir %t/kmaj2
// RUN: FileCheck %s --check-prefix=KW2 < %t/kmaj2/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/kmaj2/rock_attention_kernel.ptx -o %t/kmaj2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen -t bf16 -head_dim_qk 128 -head_dim_v 128 -seq_len_q 1 --arch sm_90 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_k 8192 --module-attr rock.gpu_accel_key_warps=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/kmaj4.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/kmaj4.mlir %t/kmaj4
// RUN: FileCheck %s --check-prefix=KW4 < %t/kmaj4/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/kmaj4/rock_attention_kernel.ptx -o %t/kmaj4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// KW2: .maxntid 64, 1, 1
// KW2: bar.warp.sync -1;
// KW4: .maxntid 128, 1, 1
// KW4: bar.warp.sync -1;
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
