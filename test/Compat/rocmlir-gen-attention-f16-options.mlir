// Follows rocMLIR's mlir/test/rocmlir-gen/attention-kernel-f16.mlir (its
// -schedule_version and --softmax_dtype runs): rock-gen records
// -schedule_version on a GPU kernel as rocmlir-gen does (no rock lowering
// reads it: the note says so), and rock-opt reads the attribute back; the
// softmax type defaults to f32 for f16 and follows --softmax_dtype.
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f16 -pv --apply-bufferization-pipeline=false --schedule_version 2 2>/dev/null | rock-opt | FileCheck %s --check-prefix=SCHEDV2
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 64 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -t f16 --schedule_version 4 2>&1 >/dev/null | FileCheck %s --check-prefix=NOTE
// RUN: rock-gen --operation attention -seq_len_q 64 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -t f16 --schedule_version 3 2>/dev/null | FileCheck %s --check-prefix=CPU
// RUN: not rock-gen --arch gfx942 --operation attention -seq_len_q 64 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 --schedule_version 0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 256 -seq_len_k 256 -head_dim_qk 32 -head_dim_v 32 -t f16 | FileCheck %s --check-prefix=SOFTMAX_DEFAULT_F16
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 256 -seq_len_k 256 -head_dim_qk 32 -head_dim_v 32 -t f16 --softmax_dtype f16 | FileCheck %s --check-prefix=SOFTMAX_F16

// SCHEDV2-LABEL: func.func @rock_attention
// SCHEDV2-SAME: attributes {mhal.arch = "gfx90a:sramecc+:xnack-", rock.kernel, rock.schedule_version = #rock.rock.schedule_version<2>}
// SCHEDV2-LABEL: func.func @host_naive_attention(
// SCHEDV2-NOT: rock.schedule_version
// SCHEDV2-LABEL: func.func @main

// NOTE: rock-gen: note: -schedule_version has no effect on gfx90a:sramecc+:xnack-

// The CPU kernel keeps its C interface only.
// CPU-LABEL: func.func @rock_attention
// CPU-SAME: attributes {llvm.emit_c_interface}{{ }}{
// CPU-NOT: schedule_version

// ZERO: rock-gen: error: --schedule_version must be at least 1 (got 0)

// SOFTMAX_DEFAULT_F16: rock.attention
// SOFTMAX_DEFAULT_F16: softmaxType = f32
// SOFTMAX_F16: rock.attention
// SOFTMAX_F16: softmaxType = f16
