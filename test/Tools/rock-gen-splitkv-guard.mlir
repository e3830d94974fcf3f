// The split-KV memory guard (docs/semantics.md §5.7) with both env overrides, the
// device-memory limit and the 1.5 GiB default. Worked example: Q 1x1024x64
// f16, S = 2 needs (2-1)*(1*1024*64*2 + 1*1024*4) = 135168 bytes.
// RUN: sh -c 'ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=1000 rock-gen -t f16 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 -split_kv 2 -return_lse 2>&1; echo rc=$?' | FileCheck %s --check-prefix=ROCK
// ROCK: {{^}}rock-gen: error: splitKV requires 135168 bytes of extra output/LSE storage, which exceeds the limit (1000 bytes). Lower splitKV or reduce sequence sizes. Override this guard with ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES. (rock also reads ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES, which wins.){{$}}
// ROCK-NEXT: {{^}}rc=2
// rocMLIR's variable name; a value that is not a positive integer is ignored.
// RUN: sh -c 'ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=abc ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=135167 rock-gen -t f16 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 -split_kv 2 -return_lse 2>&1; echo rc=$?' | FileCheck %s --check-prefix=ROCMLIR
// ROCMLIR: {{^}}rock-gen: error: splitKV requires 135168 bytes of extra output/LSE storage, which exceeds the limit (135167 bytes).
// ROCMLIR-NEXT: {{^}}rc=2
// A large override passes; exactly at the limit passes.
// RUN: env ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=135168 rock-gen -t f16 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 -split_kv 2 -return_lse | FileCheck %s --check-prefix=PASS
// RUN: env ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=1000000000 rock-gen -t f16 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 -split_kv 2 -return_lse | FileCheck %s --check-prefix=PASS
// PASS: rock.attention_combine

// Default limit 1.5 GiB: (3-1)*(64*16384*(256*4 + 4)) = 2155872256 bytes.
// RUN: sh -c 'rock-gen -num_heads_q 64 -num_heads_kv 64 -seq_len_q 16384 -seq_len_k 16 -head_dim_qk 16 -head_dim_v 256 -split_kv 3 -return_lse 2>&1; echo rc=$?' | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: {{^}}rock-gen: error: splitKV requires 2155872256 bytes of extra output/LSE storage, which exceeds the limit (1610612736 bytes).
// DEFAULT-NEXT: {{^}}rc=2
// Device memory: clamp(mem/8, 1 GiB, 8 GiB); 1077936128 bytes at S = 2.
// RUN: sh -c 'rock-gen --device-mem-bytes 1024 -num_heads_q 64 -num_heads_kv 64 -seq_len_q 16384 -seq_len_k 16 -head_dim_qk 16 -head_dim_v 256 -split_kv 2 -return_lse 2>&1; echo rc=$?' | FileCheck %s --check-prefix=DEVMEM
// DEVMEM: {{^}}rock-gen: error: splitKV requires 1077936128 bytes of extra output/LSE storage, which exceeds the limit (1073741824 bytes).
// DEVMEM-NEXT: {{^}}rc=2
// RUN: rock-gen --device-mem-bytes=68719476736 -num_heads_q 64 -num_heads_kv 64 -seq_len_q 16384 -seq_len_k 16 -head_dim_qk 16 -head_dim_v 256 -split_kv 3 -return_lse | FileCheck %s --check-prefix=DEVMEM-PASS
// DEVMEM-PASS: rock.device_mem_bytes = 68719476736 : i64
