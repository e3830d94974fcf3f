// rock-run reports the JIT's own error: a kernel that calls a symbol no
// library defines fails with LLVM's "Symbols not found" text naming it, exit
// 3, and nothing blames llvm.emit_c_interface.
// RUN: sh -c 'rock-run %s; echo "exit $?"' 2>&1 | FileCheck %s
// CHECK-NOT: emit_c_interface
// CHECK: rock-run: error: JIT compilation failed: {{.*}}Symbols not found: [ rock_no_such_symbol ]
// CHECK-NEXT: exit 3

// An unknown --cpu, or $ROCK_JIT_CPU, is refused before LLVM sees it.
// RUN: sh -c 'rock-run %s --cpu no-such-cpu; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: rock-run: error: unknown CPU 'no-such-cpu' (--cpu): give an LLVM x86-64 CPU name such as x86-64-v3 or znver4
// CPU-NEXT: exit 3
// RUN: sh -c 'ROCK_JIT_CPU=i686 rock-run %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=ENV
// ENV: rock-run: error: unknown CPU 'i686' ($ROCK_JIT_CPU)
// ENV-NEXT: exit 3

module attributes {rock.harness = {seq_len_q = 2 : i64, seq_len_k = 2 : i64,
                                   head_dim_qk = 2 : i64, head_dim_v = 2 : i64}} {
  func.func private @rock_no_such_symbol()
  func.func @rock_attention(%q: memref<4xf32>, %k: memref<4xf32>,
                            %v: memref<4xf32>, %o: memref<4xf32>)
      attributes {llvm.emit_c_interface} {
    func.call @rock_no_such_symbol() : () -> ()
    return
  }
}
