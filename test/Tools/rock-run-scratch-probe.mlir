// rock-run checks that every thread's per-workgroup scratch can be allocated
// before the kernel runs (the kernel's own mallocs are not checked). Under
// an address-space limit the run ends with one line, not a SIGSEGV.
// ASan reserves terabytes of shadow: an address-space limit breaks it.
// UNSUPPORTED: asan
// RUN: rock-gen -t f16 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 524288 -head_dim_v 524288 -pv > %t.mlir
// RUN: sh -c 'OMP_NUM_THREADS=2 prlimit --as=600000000 rock-run %t.mlir; echo "exit $?"' 2>&1 | FileCheck %s
// CHECK: rock-run: error: out of memory: the kernel needs 2 x 132 MiB of per-workgroup scratch (one per thread)
// CHECK-NEXT: exit 3
