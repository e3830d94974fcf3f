// Text nested deeper than ROCK_MAX_TEXT_NESTING (256) is refused before
// MLIR's recursive parser can overflow the stack; 256 levels still parse.
// RUN: python3 -c "print('module attributes {a.b = ' + '['*10000 + ']'*10000 + '} {}')" > %t.deep.mlir
// RUN: sh -c 'rock-opt %t.deep.mlir; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: rock-opt: error: {{.*}}.mlir: line 1: brackets nest deeper than 256
// OPT-NEXT: exit 1
// RUN: sh -c 'rock-opt < %t.deep.mlir; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: rock-opt: error: -: line 1: brackets nest deeper than 256
// STDIN-NEXT: exit 1
// RUN: sh -c 'rock-run %t.deep.mlir; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=JIT
// JIT: rock-run: error: cannot parse {{.*}}.deep.mlir: line 1: brackets nest deeper than 256
// JIT-NEXT: exit 3
// Types nest too (tuple<tuple<...>>), and brackets in strings and comments
// do not count.
// RUN: python3 -c "print('func.func private @f() -> ' + 'tuple<'*5000 + 'i32' + '>'*5000)" > %t.type.mlir
// RUN: sh -c 'rock-opt %t.type.mlir; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: python3 -c "print('module attributes {a.b = ' + '['*254 + ']'*254 + ', a.c = \"' + '['*1000 + '\"} {}\n// ' + '{'*1000)" | rock-opt | FileCheck %s --check-prefix=OK
// OK: module attributes {a.b = {{\[+}}
