// REQUIRES: fuzz
// Every input a fuzz target ever crashed on, minimised, run once by that
// target: it must now pass under ASan and UBSan.
// parse-unterminated.mlir: MLIR's parser reads the byte after the text it
// is given; an unterminated buffer was a heap-buffer-overflow (rock-run's
// readAll and the targets now NUL-terminate what they parse).
// RUN: %fuzz_bin/rock-fuzz-parse-verify %S/Inputs/parse-unterminated.mlir 2>&1 | FileCheck %s
// CHECK: Executed {{.*}}parse-unterminated.mlir
// CHECK-NOT: ERROR
// harness-empty-string.txt: an empty string value (verifier = "") has a null
// data pointer; rockHarnessRead passed it to memcpy (UBSan: null argument).
// RUN: %fuzz_bin/rock-fuzz-harness %S/Inputs/harness-empty-string.txt 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: Executed {{.*}}harness-empty-string.txt
// EMPTY-NOT: runtime error
