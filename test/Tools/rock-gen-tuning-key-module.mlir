// `rock-gen --emit-tuning-key FILE` (`-` = stdin) reads a module, as
// rocmlir-gen does: the problem of its rock.harness (rock-gen's modules), or
// of its rock.attention (rocmlir-gen's, which carry no harness), the target
// of its mhal.arch (or rock.arch), the compute units of -num_cu, of its
// rock.num_cu or of the target. rocMLIR's test/rocmlir-gen/problem-key.mlir
// pipes rocmlir-gen's output into `rocmlir-gen --emit-tuning-key -`.
// RUN: rock-gen --arch gfx942 --operation attention -seq_len_q 256 -seq_len_k 512 -head_dim_qk 64 -head_dim_v 32 -t i8 -g 8 -num_heads_q 4 -num_heads_kv 2 -causal -causal_look_back 7 | rock-gen --emit-tuning-key - | FileCheck %s --check-prefix=HARNESS
// HARNESS: {{^}}gfx942	304	-t i8 -transQ false -transK false -transV false -transO false -g 8 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 64 -head_dim_v 32 -causal true -return_lse false -split_kv 1 -causal_look_back 7 -num_heads_q 4 -num_heads_kv 2{{$}}
// The same key as from the flags.
// RUN: rock-gen --arch gfx942 --operation attention -seq_len_q 256 -seq_len_k 512 -head_dim_qk 64 -head_dim_v 32 -t i8 -g 8 -num_heads_q 4 -num_heads_kv 2 -causal -causal_look_back 7 --emit-tuning-key | FileCheck %s --check-prefix=HARNESS

// A module file, a GPU target's rock.num_cu, -num_cu over it.
// RUN: rock-gen -p -t f16 --arch sm_90 -num_cu 100 -split_kv 2 -return_lse -transQ -o %t.mlir
// RUN: rock-gen --emit-tuning-key %t.mlir | FileCheck %s --check-prefix=FILE
// FILE: {{^}}sm_90	100	-t f16 -transQ true -transK false -transV false -transO false -g 1 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -causal false -return_lse true -split_kv 2 -num_heads_q 1 -num_heads_kv 1{{$}}
// RUN: rock-gen --emit-tuning-key -num_cu 7 %t.mlir | FileCheck %s --check-prefix=CU7
// CU7: {{^}}sm_90	7	-t f16

// rocmlir-gen's form: no harness, the problem from the op (G = 8 / 4).
// RUN: rock-gen --emit-tuning-key %s | FileCheck %s --check-prefix=OP
// OP: {{^}}amdgcn-amd-amdhsa:gfx90a:sramecc+:xnack-	110	-t f16 -transQ false -transK true -transV false -transO false -g 2 -seq_len_q 16 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 8 -causal true -return_lse false -split_kv 1 -num_heads_q 4 -num_heads_kv 2{{$}}
// Without a target in the module, --arch names it; without either, cpu.
// RUN: sed 's/mhal.arch = "[^"]*"//' %s | rock-gen --emit-tuning-key --arch gfx942 - | FileCheck %s --check-prefix=ARCH
// ARCH: {{^}}gfx942	304	-t f16
// RUN: sed 's/mhal.arch = "[^"]*"//' %s | rock-gen --emit-tuning-key - | FileCheck %s --check-prefix=CPU
// CPU: {{^}}cpu	64	-t f16

// Errors: an input without --emit-tuning-key, two inputs, unreadable or
// unparsable input, a module without attention.
// RUN: sh -c 'rock-gen -p %s 2>&1; echo rc=$?' | FileCheck %s --check-prefix=NOKEY
// NOKEY: {{^}}rock-gen: error: an input module ('{{.*}}tuning-key-module.mlir') is read only with --emit-tuning-key{{$}}
// NOKEY-NEXT: rc=2
// RUN: sh -c 'rock-gen --emit-tuning-key %s - 2>&1; echo rc=$?' | FileCheck %s --check-prefix=TWO
// TWO: {{^}}rock-gen: error: unexpected argument '-' (the input module is '{{.*}}tuning-key-module.mlir'){{$}}
// TWO-NEXT: rc=2
// RUN: sh -c 'rock-gen --emit-tuning-key %t.missing 2>&1; echo rc=$?' | FileCheck %s --check-prefix=MISSING
// MISSING: {{^}}rock-gen: error: cannot open '{{.*}}.missing': No such file or directory{{$}}
// MISSING-NEXT: rc=2
// RUN: sh -c 'echo "module {" | rock-gen --emit-tuning-key - 2>&1; echo rc=$?' | FileCheck %s --check-prefix=PARSE
// PARSE: rock-gen: error: <stdin>: {{.*}}
// PARSE: {{^}}rock-gen: error: cannot parse <stdin>{{$}}
// PARSE-NEXT: rc=2
// RUN: sh -c 'echo "module {}" | rock-gen --emit-tuning-key - 2>&1; echo rc=$?' | FileCheck %s --check-prefix=EMPTY
// EMPTY: {{^}}rock-gen: error: <stdin> has neither rock.harness nor rock.attention{{$}}
// EMPTY-NEXT: rc=2

module attributes {mhal.arch = "amdgcn-amd-amdhsa:gfx90a:sramecc+:xnack-"} {
  func.func @rock_attention(%q: memref<8x16x32xf16>, %k: memref<4x64x32xf16>, %v: memref<4x64x8xf16>, %out: memref<8x16x8xf16>) {
    rock.attention {
      qk = %q * tr %k : memref<8x16x32xf16>, memref<4x64x32xf16>
      causal
      %out = softmax(qk) * %v : memref<4x64x8xf16> -> memref<8x16x8xf16>
    } {numHeadsKV = 2 : i32, numHeadsQ = 4 : i32}
    return
  }
}
