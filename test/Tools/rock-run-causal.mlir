// RUN: rock-run %s | FileCheck %s
// RUN: rock-run %s -v --time | FileCheck %s --check-prefix=VERBOSE
// RUN: rock-run - --kernel-repeats 3 --time < %s | FileCheck %s --check-prefix=TIME
// RUN: rock-run %s -pr -pi -pvr | FileCheck %s --check-prefix=PRINT
// RUN: rock-run %s -pr -pi -pvr -v | grep -c "\[" | FileCheck %s --check-prefix=BRACKETS
// f32 attention 1x3x5x8, causal, written in plain scf/memref/arith/math,
// on rocmlir-gen's literal fixed pattern (rand = "fixed") so that the
// printed values are known.
// Without -v, a passing run prints only the verdict.
// CHECK-NOT: RMS
// CHECK: [1 1 1]
// The thresholds are derived from f32's resolution at the output's maximum
// (docs/semantics.md §8).
// VERBOSE-DAG: out: RMS {{.*}} (threshold {{[0-9.e-]+}}, pass)
// VERBOSE-DAG: out: maxAbsDiff {{.*}} (threshold {{[0-9.e-]+}}, pass)
// VERBOSE-DAG: out: maxRelDiff {{.*}} (threshold {{[0-9.e-]+}}, pass)
// VERBOSE-DAG: out: relDiff floor {{[0-9.e-]+}}: {{[0-9]+}} of 24 elements have |ref| at least that (smaller ones are judged by absDiff)
// VERBOSE-DAG: out: maxMag {{.*}}, NaN mismatches 0 of 24 elements
// VERBOSE-DAG: inputs: rand fixed (seed 0), combine in the module
// VERBOSE-DAG: phases: parse {{.*}} ms, lower {{.*}} ms, JIT {{.*}} ms, inputs {{.*}} ms, reference {{.*}} ms
// VERBOSE: [1 1 1]
// VERBOSE-NEXT: compile_time_ms: {{[0-9.]+}}
// VERBOSE-NEXT: kernel_time_ms: {{[0-9.]+}}
// TIME: [1 1 1]
// TIME-NEXT: compile_time_ms:
// TIME-NEXT: kernel_time_ms:
// Printed tensors never look like a verdict.
// PRINT: input Q (f32, 24 elements):
// PRINT-NEXT: 0.5 -1 0.75 0.5 -1 0.75
// PRINT: input K (f32, 40 elements):
// PRINT: input V (f32, 40 elements):
// PRINT: result out (f32, 24 elements):
// PRINT-NEXT: 0.5 -1 0.75 0.5 -1 0.75 0.5 -1
// PRINT: reference out (f64, 24 elements):
// PRINT: [1 1 1]
// Only the verdict line has brackets, even with everything printed.
// BRACKETS: {{^}}1{{$}}
// The kernel is plain upstream MLIR (no rock ops), written from the same
// template as the other rock-run-*.mlir kernels; it tests rock-run, not the
// compiler.
module attributes {rock.harness = {t = "f32", rand = "fixed", g = 1 : i64, num_heads_q = 1 : i64, num_heads_kv = 1 : i64, seq_len_q = 3 : i64, seq_len_k = 5 : i64, head_dim_qk = 8 : i64, head_dim_v = 8 : i64, causal = true, return_lse = false, split_kv = 1 : i64}} {
  func.func private @score(%q: memref<24xf32>, %k: memref<40xf32>, %b: index, %bkv: index, %i: index, %j: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cD = arith.constant 8 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 5 : index
    %zero = arith.constant 0.0 : f32
    %s = scf.for %dd = %c0 to %cD step %c1 iter_args(%acc = %zero) -> (f32) {
      %t1 = arith.muli %b, %cSq : index
      %t2 = arith.addi %t1, %i : index
      %t3 = arith.muli %t2, %cD : index
      %t4 = arith.addi %t3, %dd : index
      %t5 = arith.muli %bkv, %cD : index
      %t6 = arith.addi %t5, %dd : index
      %t7 = arith.muli %t6, %cSk : index
      %t8 = arith.addi %t7, %j : index
      %x9 = memref.load %q[%t4] : memref<24xf32>
      %x10 = memref.load %k[%t8] : memref<40xf32>
      %p = arith.mulf %x9, %x10 : f32
      %a = arith.addf %acc, %p : f32
      scf.yield %a : f32
    }
    return %s : f32
  }
  func.func @rock_attention(%q: memref<24xf32>, %k: memref<40xf32>, %v: memref<40xf32>, %out: memref<24xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cB = arith.constant 1 : index
    %cR = arith.constant 1 : index
    %cHq = arith.constant 1 : index
    %cS = arith.constant 1 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 5 : index
    %cSkm1 = arith.constant 4 : index
    %cDv = arith.constant 8 : index
    %cChunk = arith.constant 5 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    scf.for %b = %c0 to %cB step %c1 {
      %bkv = arith.divui %b, %cR : index
      %g = arith.divui %b, %cHq : index
      %last0 = arith.addi %cSkm1, %c0 : index
      scf.for %s = %c0 to %cS step %c1 {
        %jlo0 = arith.muli %s, %cChunk : index
        %s1 = arith.addi %s, %c1 : index
        %jhi0 = arith.muli %s1, %cChunk : index
        %jhi = arith.minsi %jhi0, %cSk : index
        scf.for %i = %c0 to %cSq step %c1 {
          %last = arith.minsi %last0, %i : index
          %jlo = arith.addi %jlo0, %c0 : index
          %lastp1 = arith.addi %last, %c1 : index
          %jend = arith.minsi %jhi, %lastp1 : index
          %m = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %ninf) -> (f32) {
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<24xf32>, memref<40xf32>, index, index, index, index) -> f32
            %mx = arith.maximumf %acc, %sc : f32
            scf.yield %mx : f32
          }
          %empty = arith.cmpf oeq, %m, %ninf : f32
          %msafe = arith.select %empty, %zero, %m : f32
          %l = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %zero) -> (f32) {
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<24xf32>, memref<40xf32>, index, index, index, index) -> f32
            %x = arith.subf %sc, %msafe : f32
            %p = math.exp %x : f32
            %a = arith.addf %acc, %p : f32
            scf.yield %a : f32
          }
          %lzero = arith.cmpf oeq, %l, %zero : f32
          %bs0 = arith.muli %b, %cS : index
          %bs = arith.addi %bs0, %s : index
          %row0 = arith.muli %bs, %cSq : index
          %row = arith.addi %row0, %i : index
          scf.for %e = %c0 to %cDv step %c1 {
            %o = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %zero) -> (f32) {
              %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<24xf32>, memref<40xf32>, index, index, index, index) -> f32
              %x = arith.subf %sc, %msafe : f32
              %p = math.exp %x : f32
              %t11 = arith.muli %bkv, %cSk : index
              %t12 = arith.addi %t11, %j : index
              %t13 = arith.muli %t12, %cDv : index
              %t14 = arith.addi %t13, %e : index
              %x15 = memref.load %v[%t14] : memref<40xf32>
              %pv = arith.mulf %p, %x15 : f32
              %a = arith.addf %acc, %pv : f32
              scf.yield %a : f32
            }
            %div = arith.divf %o, %l : f32
            %res = arith.select %lzero, %zero, %div : f32
            %t16 = arith.muli %row, %cDv : index
            %t17 = arith.addi %t16, %e : index
            memref.store %res, %out[%t17] : memref<24xf32>
          }
        }
      }
    }
    return
  }
}
