// Hostile sizes and thread counts: each case ends within seconds with one
// line on stderr and exit 3, never a signal (docs/internals.md, "Hostile
// input and limits").

// Q of 2^61 x 2 elements: the byte count would wrap to 0.
// RUN: sh -c 'echo "module attributes {rock.harness = {t = \"f32\", seq_len_q = 2305843009213693952 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} {}" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=WRAPQ
// WRAPQ: rock-run: error: rock.harness: problem too large: Q (g*num_heads_q*seq_len_q*head_dim_qk elements) exceeds 2^40 elements
// WRAPQ-NEXT: exit 3

// g = 2^61 with head dims 8: every element count wraps to 0, so a kernel
// taking memref<0xf32> would pass the signature check.
// RUN: sh -c 'echo "module attributes {rock.harness = {t = \"f32\", g = 2305843009213693952 : i64, seq_len_q = 1 : i64, seq_len_k = 1 : i64, head_dim_qk = 8 : i64, head_dim_v = 8 : i64}} { func.func @rock_attention(%%q: memref<0xf32>, %%k: memref<0xf32>, %%v: memref<0xf32>, %%o: memref<0xf32>) { return } }" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=WRAPG
// WRAPG: rock-run: error: rock.harness: problem too large: Q (g*num_heads_q*seq_len_q*head_dim_qk elements) exceeds 2^40 elements
// WRAPG-NEXT: exit 3

// Scores of 2^36 elements (bias) fit the element bound but not the machine:
// refused before anything is allocated or touched.
// RUN: sh -c 'echo "module attributes {rock.harness = {t = \"f32\", g = 65536 : i64, seq_len_q = 1024 : i64, seq_len_k = 1024 : i64, head_dim_qk = 8 : i64, head_dim_v = 8 : i64, with_attn_bias = true}} { func.func @rock_attention() { return } }" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=OOM
// OOM: rock-run: error: out of memory: the run needs {{[0-9]+}} MiB of host buffers, {{[0-9]+}} MiB are available
// OOM-NEXT: exit 3

// Negative list values and windows are not masks.
// RUN: sh -c 'echo "module attributes {rock.harness = {seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64, current_seq_len = [-1]}} {}" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=CSL
// CSL: rock-run: error: rock.harness: current_seq_len values must be in [0, 2^31)
// CSL-NEXT: exit 3
// RUN: sh -c 'echo "module attributes {rock.harness = {seq_len_q = 2 : i64, seq_len_k = 2 : i64, head_dim_qk = 2 : i64, head_dim_v = 2 : i64, sliding_window_size = -3}} {}" | rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=WIN
// WIN: rock-run: error: rock.harness: 'sliding_window_size' must not be negative
// WIN-NEXT: exit 3

// A thread count libomp cannot mean, before anything is parsed.
// RUN: sh -c 'OMP_NUM_THREADS=9223372036854775807 rock-run %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=OMP
// RUN: sh -c 'OMP_NUM_THREADS=99999999999999999999 rock-run %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=OMP
// OMP: rock-run: error: OMP_NUM_THREADS '{{[0-9]+}}': the thread count must be at most 65536
// OMP-NEXT: exit 3

// Per-workgroup scratch of 64 rows of a 4M-wide head (1 GiB of Q tile) is
// refused at compile time, at the user's op, instead of a kernel whose
// malloc may return null (rock-opt: no host buffers are involved).
// RUN: rock-gen -t f16 -seq_len_q 64 -seq_len_k 64 -head_dim_qk 4194304 -head_dim_v 4194304 -pv > %t.wide.mlir
// RUN: sh -c 'rock-opt --rock-cpu-pipeline %t.wide.mlir > /dev/null; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=SCRATCH
// SCRATCH: error: the CPU lowering needs {{[0-9]+}} MiB of scratch per workgroup, more than the limit of 256 MiB (head dimensions or perf_config tiles too large)
// SCRATCH: exit 1
