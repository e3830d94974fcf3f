// Every C and C++ source is clang-formatted (.clang-format: LLVM style;
// scripts/check-format.sh --fix formats them), and the check can fail.
// RUN: %rock_src/scripts/check-format.sh | FileCheck %s
// RUN: printf 'int  main( ){return 0;}\n' > %t.c
// RUN: not %rock_src/scripts/check-format.sh %t.c 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %rock_src/scripts/check-format.sh --fix %t.c
// RUN: %rock_src/scripts/check-format.sh %t.c | FileCheck %s --check-prefix=FIXED

// CHECK: check-format: {{[0-9]+}} files clang-formatted
// BAD: {{.*}}.c: not clang-formatted
// BAD: check-format: run scripts/check-format.sh --fix
// FIXED: check-format: 1 files clang-formatted
