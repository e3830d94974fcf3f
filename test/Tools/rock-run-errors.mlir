// Malformed inputs: every failure is one line on stderr and a non-zero exit
// (2 usage, 3 input / harness / compile errors).
// RUN: sh -c 'rock-run %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=NOHARNESS
// NOHARNESS: rock-run: error: {{.*}}rock-run-errors.mlir has no rock.harness module attribute
// NOHARNESS-NEXT: exit 3

// RUN: sh -c 'rock-run %t.missing; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: rock-run: error: cannot open '{{.*}}.missing': No such file or directory
// NOFILE-NEXT: exit 3

// RUN: sh -c 'echo "module {" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: rock-run: error: cannot parse <stdin>: {{.*}}
// PARSE-NEXT: exit 3

// RUN: sh -c 'rock-run %s --bogus; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: rock-run: unknown option '--bogus'
// USAGE-NEXT: exit 2
// RUN: sh -c 'rock-run %s --kernel-repeats 0; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=REPEATS
// REPEATS: rock-run: --kernel-repeats needs a positive integer, got '0'
// REPEATS-NEXT: exit 2
// RUN: sh -c 'rock-run %s -RMS_threshold; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: rock-run: option '-RMS_threshold' needs a value
// NOVALUE-NEXT: exit 2

// RUN: sh -c 'echo "module attributes {rock.harness = 1 : i64} {}" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=NOTDICT
// NOTDICT: rock-run: error: rock.harness must be a dictionary attribute
// NOTDICT-NEXT: exit 3

// RUN: sh -c 'echo "module attributes {rock.harness = {t = \"f32\", seq_len_q = 2 : i64}} {}" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: rock-run: error: rock.harness: 'seq_len_k' is missing
// MISSING-NEXT: exit 3

// RUN: sh -c 'echo "module attributes {rock.harness = {t = \"f64\", seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} {}" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: rock-run: error: rock.harness: element type must be f32, f16, bf16 or i8
// TYPE-NEXT: exit 3

// RUN: sh -c 'echo "module attributes {rock.harness = {num_heads_q = 3 : i64, num_heads_kv = 2 : i64, seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} {}" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=GQA
// GQA: rock-run: error: rock.harness: num_heads_q must be a multiple of num_heads_kv
// GQA-NEXT: exit 3

// RUN: sh -c 'echo "module attributes {rock.harness = {causal = \"yes\", seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} {}" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: rock-run: error: rock.harness: 'causal' must be a bool
// KIND-NEXT: exit 3

// RUN: sh -c 'echo "module attributes {rock.harness = {seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} {}" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// NOKERNEL: rock-run: error: <stdin> has no @rock_attention function
// NOKERNEL-NEXT: exit 3

// RUN: sh -c 'echo "module attributes {rock.harness = {seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} { func.func @rock_attention(%%a: memref<4xf32>) { return } }" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=ARITY
// ARITY: rock-run: error: @rock_attention has 1 arguments, the harness expects 4
// ARITY-NEXT: exit 3

// RUN: sh -c 'echo "module attributes {rock.harness = {seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} { func.func @rock_attention(%%q: memref<4xf32>, %%k: memref<4xf16>, %%v: memref<4xf32>, %%o: memref<4xf32>) { return } }" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=SIG
// SIG: rock-run: error: @rock_attention argument 1 (K) is memref<4xf16>, the harness expects memref<4xf32>
// SIG-NEXT: exit 3

// RUN: sh -c 'echo "module attributes {rock.harness = {seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} { func.func @rock_attention(%%q: memref<4xf32>, %%k: memref<4xf32>, %%v: memref<4xf32>, %%o: memref<4xf32>) { return } }" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=CIFACE
// A kernel without llvm.emit_c_interface (rocmlir-gen's GPU-target form) gets
// it from rock-run: this one runs, writes nothing, and fails the NaN rule.
// CIFACE: {{^}}[0 0 0]
// CIFACE-NEXT: exit 1

// RUN: sh -c 'echo "module attributes {rock.harness = {g = 3 : i64, current_seq_len = [1, 2], seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} {}" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: rock-run: error: rock.harness: current_seq_len must hold G values
// LIST-NEXT: exit 3
// A single value is broadcast to all G batches (ArrayAttr or dense array).
// RUN: sh -c 'echo "module attributes {rock.harness = {g = 3 : i64, current_seq_len = [1], prefix_offset = array<i64: 2>, causal = true, seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} {}" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=BROADCAST
// BROADCAST: rock-run: error: <stdin> has no @rock_attention function
// BROADCAST-NEXT: exit 3

// RUN: rock-run --help | FileCheck %s --check-prefix=HELP
// HELP: usage: rock-run [file|-]

module {
}

// An empty string value reads as empty (once a memcpy from a null pointer,
// UBSan under make test-asan), then fails as the bad value it is.
// RUN: sh -c 'echo "module attributes {rock.harness = {verifier = \"\", rand = \"\", seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} { func.func @rock_attention(%%q: memref<4xf32>, %%k: memref<4xf32>, %%v: memref<4xf32>, %%o: memref<4xf32>) attributes {llvm.emit_c_interface} { return } }" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=EMPTYSTR
// EMPTYSTR: rock-run: error: rock.harness: bad rand value ''
// EMPTYSTR-NEXT: exit 3
