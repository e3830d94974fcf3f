// RUN: rock-run %s -v | FileCheck %s
// f16 buffers (loads widened to f32, the result rounded to f16); thresholds
// derived from f16's resolution (docs/semantics.md §8): absDiff at least one
// f16 ulp of the largest output, below 2 (maxMag < 1 here: 2^-10).
// CHECK-DAG: out: RMS {{.*}} (threshold {{[0-9.e-]+}}, pass)
// CHECK-DAG: out: maxAbsDiff {{.*}} (threshold 0.00{{0[5-9]|1[0-9]}}{{[0-9]*}}, pass)
// CHECK-DAG: out: maxRelDiff {{.*}} (threshold {{[0-9.e-]+}}, pass)
// CHECK: [1 1 1]
// The kernel is plain upstream MLIR (no rock ops), written from the same
// template as the other rock-run-*.mlir kernels; it tests rock-run, not the
// compiler.
module attributes {rock.harness = {t = "f16", g = 1 : i64, num_heads_q = 2 : i64, num_heads_kv = 1 : i64, seq_len_q = 4 : i64, seq_len_k = 9 : i64, head_dim_qk = 8 : i64, head_dim_v = 8 : i64, causal = true, return_lse = false, split_kv = 1 : i64, rand = "5", rand_type = "float"}} {
  func.func private @score(%q: memref<64xf16>, %k: memref<72xf16>, %b: index, %bkv: index, %i: index, %j: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cD = arith.constant 8 : index
    %cSq = arith.constant 4 : index
    %cSk = arith.constant 9 : index
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
      %x9 = memref.load %q[%t4] : memref<64xf16>
      %x10 = arith.extf %x9 : f16 to f32
      %x11 = memref.load %k[%t8] : memref<72xf16>
      %x12 = arith.extf %x11 : f16 to f32
      %p = arith.mulf %x10, %x12 : f32
      %a = arith.addf %acc, %p : f32
      scf.yield %a : f32
    }
    return %s : f32
  }
  func.func @rock_attention(%q: memref<64xf16>, %k: memref<72xf16>, %v: memref<72xf16>, %out: memref<64xf16>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cB = arith.constant 2 : index
    %cR = arith.constant 2 : index
    %cHq = arith.constant 2 : index
    %cS = arith.constant 1 : index
    %cSq = arith.constant 4 : index
    %cSk = arith.constant 9 : index
    %cSkm1 = arith.constant 8 : index
    %cDv = arith.constant 8 : index
    %cChunk = arith.constant 9 : index
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
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<64xf16>, memref<72xf16>, index, index, index, index) -> f32
            %mx = arith.maximumf %acc, %sc : f32
            scf.yield %mx : f32
          }
          %empty = arith.cmpf oeq, %m, %ninf : f32
          %msafe = arith.select %empty, %zero, %m : f32
          %l = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %zero) -> (f32) {
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<64xf16>, memref<72xf16>, index, index, index, index) -> f32
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
              %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<64xf16>, memref<72xf16>, index, index, index, index) -> f32
              %x = arith.subf %sc, %msafe : f32
              %p = math.exp %x : f32
              %t13 = arith.muli %bkv, %cSk : index
              %t14 = arith.addi %t13, %j : index
              %t15 = arith.muli %t14, %cDv : index
              %t16 = arith.addi %t15, %e : index
              %x17 = memref.load %v[%t16] : memref<72xf16>
              %x18 = arith.extf %x17 : f16 to f32
              %pv = arith.mulf %p, %x18 : f32
              %a = arith.addf %acc, %pv : f32
              scf.yield %a : f32
            }
            %div = arith.divf %o, %l : f32
            %res = arith.select %lzero, %zero, %div : f32
            %t19 = arith.muli %row, %cDv : index
            %t20 = arith.addi %t19, %e : index
            %resh = arith.truncf %res : f32 to f16
            memref.store %resh, %out[%t20] : memref<64xf16>
          }
        }
      }
    }
    return
  }
}
