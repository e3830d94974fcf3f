// REQUIRES: cuda-toolkit
// ptxas on the programmatic dependent pair of gpu-pdl.mlir (bf16 GQA 4
// decode B 8 L 8k, rock.gpu_pdl, one key warp): no spills, the registers of
// the kernels with the switch false (the PTX differs only by the griddepcontrol lines).
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --verifier=none --module-attr rock.gpu_pdl=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --rock-gpu-pipeline > %t/on.mlir
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --verifier=none --module-attr rock.gpu_pdl=false --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --rock-gpu-pipeline > %t/off.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/on.mlir %t/on
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/off.mlir %t/off
// RUN: grep -v griddepcontrol %t/on/rock_attention_kernel.ptx | diff - %t/off/rock_attention_kernel.ptx
// RUN: grep -v griddepcontrol %t/on/rock_attention_kernel_0.ptx | diff - %t/off/rock_attention_kernel_0.ptx
// RUN: %ptxas -arch=sm_90 -v %t/on/rock_attention_kernel.ptx -o %t/s.cubin 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %ptxas -arch=sm_90 -v %t/off/rock_attention_kernel.ptx -o %t/s0.cubin 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %ptxas -arch=sm_90 -v %t/on/rock_attention_kernel_0.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=COMBINE
// SPLIT: 0 bytes spill stores, 0 bytes spill loads
// SPLIT: Used {{2[0-9][0-9]}} registers
// COMBINE: 0 bytes spill stores, 0 bytes spill loads
