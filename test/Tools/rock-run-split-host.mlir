// RUN: rock-run %s -v | FileCheck %s
// RUN: rock-run %s --comparator allclose -v | FileCheck %s --check-prefix=ALLCLOSE
// Split-KV 4, causal (row 0 is masked in splits 1-3), no
// @rock_attention_combine: rock-run combines on the host.
// CHECK-DAG: combine on the host
// CHECK-DAG: lse: RMS {{.*}} pass
// CHECK: [1 1 1]
// ALLCLOSE-DAG: out: allclose atol {{.*}}: 0 of 6 elements outside, pass
// ALLCLOSE-DAG: lse: allclose atol 0.015 rtol 0.0005: 0 of 3 elements outside, pass
// ALLCLOSE: [1 1 1]
// The kernel is plain upstream MLIR (no rock ops), written from the same
// template as the other rock-run-*.mlir kernels; it tests rock-run, not the
// compiler.
module attributes {rock.harness = {t = "f32", g = 1 : i64, num_heads_q = 1 : i64, num_heads_kv = 1 : i64, seq_len_q = 3 : i64, seq_len_k = 8 : i64, head_dim_qk = 4 : i64, head_dim_v = 2 : i64, causal = true, return_lse = true, split_kv = 4 : i64}} {
  func.func private @score(%q: memref<12xf32>, %k: memref<32xf32>, %b: index, %bkv: index, %i: index, %j: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cD = arith.constant 4 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 8 : index
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
      %x9 = memref.load %q[%t4] : memref<12xf32>
      %x10 = memref.load %k[%t8] : memref<32xf32>
      %p = arith.mulf %x9, %x10 : f32
      %a = arith.addf %acc, %p : f32
      scf.yield %a : f32
    }
    return %s : f32
  }
  func.func @rock_attention(%q: memref<12xf32>, %k: memref<32xf32>, %v: memref<16xf32>, %lse: memref<12xf32>, %out: memref<24xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cB = arith.constant 1 : index
    %cR = arith.constant 1 : index
    %cHq = arith.constant 1 : index
    %cS = arith.constant 4 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 8 : index
    %cSkm1 = arith.constant 7 : index
    %cDv = arith.constant 2 : index
    %cChunk = arith.constant 2 : index
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
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<12xf32>, memref<32xf32>, index, index, index, index) -> f32
            %mx = arith.maximumf %acc, %sc : f32
            scf.yield %mx : f32
          }
          %empty = arith.cmpf oeq, %m, %ninf : f32
          %msafe = arith.select %empty, %zero, %m : f32
          %l = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %zero) -> (f32) {
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<12xf32>, memref<32xf32>, index, index, index, index) -> f32
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
              %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<12xf32>, memref<32xf32>, index, index, index, index) -> f32
              %x = arith.subf %sc, %msafe : f32
              %p = math.exp %x : f32
              %t11 = arith.muli %bkv, %cSk : index
              %t12 = arith.addi %t11, %j : index
              %t13 = arith.muli %t12, %cDv : index
              %t14 = arith.addi %t13, %e : index
              %x15 = memref.load %v[%t14] : memref<16xf32>
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
          %logl = math.log %l : f32
          %lv = arith.addf %m, %logl : f32
          %lsev = arith.select %lzero, %ninf, %lv : f32
          memref.store %lsev, %lse[%row] : memref<12xf32>
        }
      }
    }
    return
  }
}
