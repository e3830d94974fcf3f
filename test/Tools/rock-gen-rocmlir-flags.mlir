// Flags of current and older rocmlir-gen (docs/rocmlir-compat.md): aliases,
// documented no-ops, notes for options without effect on the CPU, and the
// errors for what rock cannot do.

// -last_valid_kv_index is -current_seq_len (inclusive last valid key).
// RUN: rock-gen -p -g 2 -last_valid_kv_index=5,7 | FileCheck %s --check-prefix=LASTVALID
// LASTVALID: current_seq_len = array<i64: 5, 7>
// LASTVALID: currentSeqLen = (

// -sliding_window_look_back L is the window W (keys [max(0, P - L), P]).
// RUN: rock-gen -p -last_valid_kv_index=33 -sliding_window_look_back=16 | FileCheck %s --check-prefix=SWLB
// SWLB: slidingWindowSize = 16
// Without -last_valid_kv_index, rocmlir-gen passes seq_len_k - 1 per group
// (rock-gen takes one value and broadcasts it to the G arguments).
// RUN: rock-gen -g 2 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -sliding_window_look_back=16 | FileCheck %s --check-prefix=SWLBDEFAULT
// SWLBDEFAULT: current_seq_len = array<i64: 63, 63>
// SWLBDEFAULT: func.func @rock_attention(%arg0: memref<64xf32>, %arg1: memref<4096xf32>, %arg2: memref<4096xf32>, %arg3: memref<2xi32>, %arg4: memref<64xf32>)
// SWLBDEFAULT: currentSeqLen = (
// SWLBDEFAULT: slidingWindowSize = 16
// -1 turns it off; 0, < -1, > seq_len_k - 1 and > i32 are rocmlir-gen's errors.
// RUN: rock-gen -p -sliding_window_look_back=-1 | FileCheck %s --check-prefix=SWLBOFF
// SWLBOFF-NOT: slidingWindowSize
// RUN: not rock-gen -p -sliding_window_look_back=0 2>&1 | FileCheck %s --check-prefix=SWLB0
// SWLB0: {{^}}rock-gen: error: sliding_window_look_back must be -1 or a positive integer{{$}}
// RUN: not rock-gen -p -sliding_window_look_back=-2 2>&1 | FileCheck %s --check-prefix=SWLB0
// RUN: not rock-gen -p -sliding_window_look_back=1024 2>&1 | FileCheck %s --check-prefix=SWLBBIG
// SWLBBIG: {{^}}rock-gen: error: sliding_window_look_back must not exceed seq_len_k - 1{{$}}
// RUN: not rock-gen -p -sliding_window_look_back=2147483648 2>&1 | FileCheck %s --check-prefix=SWLBI32
// SWLBI32: {{^}}rock-gen: error: sliding_window_look_back must fit in a 32-bit integer{{$}}
// RUN: not rock-gen -p -sliding_window_look_back=8 -sliding_window_size=9 2>&1 | FileCheck %s --check-prefix=SWLBBOTH
// SWLBBOTH: {{^}}rock-gen: error: -sliding_window_look_back and -sliding_window_size disagree{{$}}

// -causal_look_back L with -causal: keys [max(0, i - L), i], rock's causal
// band (causalLookBack on the op, causal_look_back in the harness).
// RUN: rock-gen -p -causal -causal_look_back=8 | FileCheck %s --check-prefix=CLB
// CLB: causal_look_back = 8 : i64
// CLB: rock.attention
// CLB-NEXT: qk =
// CLB-NEXT: causalLookBack = 8
// CLB-NEXT: causal
// CLB-NOT: causalLookBack
// CLB-NOT: slidingWindowSize
// A band covering the whole query sequence is plain causal (rocmlir-gen warns).
// RUN: rock-gen -causal -causal_look_back=127 -seq_len_q 128 -seq_len_k 128 -head_dim_qk 8 -head_dim_v 8 2>&1 | FileCheck %s --check-prefix=CLBDEG
// CLBDEG: rock-gen: warning: causal_look_back (127) covers the whole query sequence (seq_len_q 128)
// CLBDEG-NOT: causalLookBack
// RUN: not rock-gen -p -causal_look_back=8 2>&1 | FileCheck %s --check-prefix=CLBCAUSAL
// CLBCAUSAL: {{^}}rock-gen: error: causal_look_back requires -causal{{$}}
// RUN: not rock-gen -p -causal -causal_look_back=0 2>&1 | FileCheck %s --check-prefix=CLB0
// CLB0: {{^}}rock-gen: error: causal_look_back must be -1 or a positive integer{{$}}
// RUN: not rock-gen -p -causal -causal_look_back=8 -prefix_offset=4 2>&1 | FileCheck %s --check-prefix=CLBPREFIX
// CLBPREFIX: {{^}}rock-gen: error: causal_look_back is not supported with prefix_offset{{$}}
// RUN: not rock-gen -causal -causal_look_back=128 -seq_len_q 256 -seq_len_k 128 -head_dim_qk 8 -head_dim_v 8 2>&1 | FileCheck %s --check-prefix=CLBWIDE
// CLBWIDE: {{^}}rock-gen: error: causal_look_back (128) must be less than seq_len_k (128) unless it also covers seq_len_q (256){{$}}
// With a KV-cache index and a sliding window: the band bounds each row from
// its causal bound, the window from the index (rocMLIR's
// AttentionCausalLookBack cases; rock-run-causal.mlir runs them).
// RUN: rock-gen -p -causal -causal_look_back=8 -last_valid_kv_index=100 -sliding_window_look_back=64 | FileCheck %s --check-prefix=CLBKV
// CLBKV: slidingWindowSize = 64
// CLBKV-NEXT: causalLookBack = 8
// CLBKV-NEXT: causal

// -causal=N (N not 0/1): causal with prefix offset N; 0/1 stay booleans.
// RUN: rock-gen -p -causal=5 | FileCheck %s --check-prefix=CAUSALN
// CAUSALN: prefix_offset = array<i64: 5>
// CAUSALN: prefixOffset = (
// CAUSALN-NEXT: causal
// RUN: rock-gen -p -causal=0 | FileCheck %s --check-prefix=CAUSAL0
// CAUSAL0: causal = false
// CAUSAL0-NOT: {{^ *}}causal{{$}}
// RUN: not rock-gen -p -causal=5 -prefix_offset=3 2>&1 | FileCheck %s --check-prefix=CAUSALNBOTH
// CAUSALNBOTH: {{^}}rock-gen: error: -causal=5 and -prefix_offset both set the prefix offset{{$}}

// Legacy -seq_len (both sequences), -head_dim and -num_heads (old name of the
// head dimension; both head dims).
// RUN: rock-gen -seq_len 64 -head_dim 16 | FileCheck %s --check-prefix=LEGACY
// RUN: rock-gen -seq_len 64 -num_heads 16 | FileCheck %s --check-prefix=LEGACY
// LEGACY: func.func @rock_attention(%arg0: memref<1024xf32>, %arg1: memref<1024xf32>, %arg2: memref<1024xf32>, %arg3: memref<1024xf32>)

// Documented no-ops: rock-gen always emits bufferized (memref) IR and its own
// harness; -fut names the one kernel it generates.
// RUN: rock-gen -p --apply-bufferization-pipeline=false --clone-harness -fut rock_attention 2>&1 | FileCheck %s --check-prefix=NOOP
// NOOP-NOT: rock-gen: note
// NOOP: func.func @rock_attention
// RUN: not rock-gen -p -fut mlir_attention 2>&1 | FileCheck %s --check-prefix=FUT
// FUT: {{^}}rock-gen: error: -fut 'mlir_attention': rock-gen generates @rock_attention and reads no input module{{$}}

// Options without effect on the CPU: one note each, once per run.
// RUN: rock-gen -p --schedule_version 2 -schedule_version 3 -num_cu 120 -num_chiplets 8 -direct_to_lds_32b -mfma=on -dot=off -x2 -perf_config attn:v3:64,64,192,32,32,96,16,8,1,1,2,0,1 2>&1 >/dev/null | FileCheck %s --check-prefix=NOTES
// NOTES: {{^}}rock-gen: note: -schedule_version has no effect on cpu{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: -num_cu has no effect on cpu{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: -num_chiplets has no effect on cpu{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: -direct_to_lds_32b / -direct_to_lds_128b have no effect on cpu{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: feature toggles (-mfma, -dot, ...) have no effect on cpu{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: -x2 has no effect on cpu{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: -perf_config fields other than the two tile sizes have no effect on cpu{{$}}
// NOTES-NOT: note
// RUN: rock-gen -p -mfma=infer -direct_to_lds_128b=false -x2=false 2>&1 >/dev/null | count 0
// Each toggle is its own flag (no "given more than once" between them).
// RUN: rock-gen -p -mfma=on -dot=off -atomic_add=on -atomic_fmax_f32=off -wmma=off 2>&1 >/dev/null | FileCheck %s --check-prefix=TOGGLES
// TOGGLES: rock-gen: note: feature toggles
// TOGGLES-NOT: more than once
// RUN: not rock-gen -p -mfma=yes 2>&1 | FileCheck %s --check-prefix=TOGGLE
// TOGGLE: {{^}}rock-gen: error: invalid value 'yes' for -mfma (infer, on or off){{$}}

// Verifiers: gpu verifies against the f64 reference (noted); cpp and clone
// are rocmlir-gen's errors for attention generation.
// RUN: rock-gen -p -pv_with_gpu 2>&1 | FileCheck %s --check-prefix=PVGPU
// RUN: rock-gen -p --verifier gpu 2>&1 | FileCheck %s --check-prefix=PVGPU
// PVGPU: rock-gen: note: -pv_with_gpu / --verifier=gpu verify against rock's f64 reference on cpu
// PVGPU: verifier = "mlir"
// RUN: not rock-gen -p -pv_with_cpp 2>&1 | FileCheck %s --check-prefix=CPP
// RUN: not rock-gen -p --verifier=cpp 2>&1 | FileCheck %s --check-prefix=CPP
// CPP: {{^}}rock-gen: error: external attention validator is not available{{$}}
// RUN: not rock-gen -p --verifier clone 2>&1 | FileCheck %s --check-prefix=CLONE
// CLONE: {{^}}rock-gen: error: clone validation is not compatible with kernel generation{{$}}

// --emit-tuning-key prints the problem, --emit-tuning-space the tile choices;
// neither prints a module.
// RUN: rock-gen -t f16 -seq_len_q 128 -seq_len_k 128 -head_dim_qk 64 -head_dim_v 64 -causal -causal_look_back=32 --emit-tuning-key | FileCheck %s --check-prefix=KEY
// KEY: {{^}}cpu 64 -t f16 -transQ false -transK false -transV false -transO false -g 1 -seq_len_q 128 -seq_len_k 128 -head_dim_qk 64 -head_dim_v 64 -causal true -return_lse false -split_kv 1 -causal_look_back 32 -num_heads_q 1 -num_heads_kv 1{{$}}
// KEY-NOT: module
// RUN: rock-gen -p --emit-tuning-space | FileCheck %s --check-prefix=SPACE
// SPACE: {{^}}attn:v3:16,16,16,8,32,32,16,4,1,1,0,0,1{{$}}
// SPACE: {{^}}attn:v3:128,128,256,8,32,32,16,4,1,1,0,0,1{{$}}
// SPACE-NOT: module
// Every printed config is accepted back.
// RUN: rock-gen -p -perf_config attn:v3:128,128,256,8,32,32,16,4,1,1,0,0,1 2>/dev/null | FileCheck %s --check-prefix=SPACEOK
// SPACEOK: perf_config = "attn:v3:128,128,256,8,32,32,16,4,1,1,0,0,1"
// RUN: rock-gen -p --arch gfx942 -num_cu 304 --emit-tuning-key | FileCheck %s --check-prefix=KEYARCH
// KEYARCH: {{^}}gfx942 304 -t f32 {{.*}} -num_heads_q 1 -num_heads_kv 1{{$}}
// Without -num_cu a GPU target's key carries the target's CU / SM count.
// RUN: rock-gen -p --arch gfx90a --emit-tuning-key | FileCheck %s --check-prefix=KEYCU
// KEYCU: {{^}}gfx90a 110 -t f32 {{.*}}{{$}}
// RUN: rock-gen -p --arch sm_90 --emit-tuning-key | FileCheck %s --check-prefix=KEYSM
// KEYSM: {{^}}sm_90 132 -t f32 {{.*}}{{$}}
// RUN: rock-gen -p --arch sm_90 -num_cu 114 --emit-tuning-key | FileCheck %s --check-prefix=KEYSET
// KEYSET: {{^}}sm_90 114 -t f32 {{.*}}{{$}}
