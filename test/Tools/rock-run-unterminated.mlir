// rock-run NUL-terminates the text it parses: MLIR's parser reads one byte
// past it. The fuzz-found input (test/Fuzz/Inputs/parse-unterminated.mlir),
// padded to exactly 64 KiB, rock-run's first read size, so that the text
// ends at the end of the buffer; ASan (make test-asan) saw a heap overflow.
// RUN: python3 -c "import sys; d=open(sys.argv[1],'rb').read(); sys.stdout.buffer.write(b' '*(65536-len(d))+d)" %S/../Fuzz/Inputs/parse-unterminated.mlir > %t.mlir
// RUN: sh -c 'rock-run %t.mlir; echo "exit $?"' 2>&1 | FileCheck %s
// CHECK: rock-run: error: cannot parse {{.*}}.mlir: {{.*}}
// CHECK-NEXT: exit 3
