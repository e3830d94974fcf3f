// rock-run checks that every thread's per-workgroup scratch can be allocated
// before the kernel runs (the kernel's own mallocs are not checked). Under
// an address-space limit the run ends with one line, not a SIGSEGV: 64
// threads x 64 MiB of tiles (head dim 2M) do not fit in 2 GB.
// ASan reserves terabytes of shadow: an address-space limit breaks it.
// UNSUPPORTED: asan
// RUN: rock-gen -t f16 -seq_len_q 1 -seq_len_k 4 -head_dim_qk 2097152 -head_dim_v 2097152 -pv > %t.mlir
// RUN: sh -c 'OMP_NUM_THREADS=64 prlimit --as=2000000000 rock-run %t.mlir; echo "exit $?"' 2>&1 | FileCheck %s
// CHECK: rock-run: error: out of memory: the kernel needs 64 x 64 MiB of per-workgroup scratch (one per thread)
// CHECK-NEXT: exit 3
// Without the limit the same kernel runs and passes.
// RUN: OMP_NUM_THREADS=2 rock-run %t.mlir | FileCheck %s --check-prefix=OK
// OK: [1 1 1]
