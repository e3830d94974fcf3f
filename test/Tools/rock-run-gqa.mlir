// RUN: rock-run %s -v | FileCheck %s
// GQA 4/2 with G = 2, causal, LSE, seeded float inputs in [-1, 1); the
// batch loop is an scf.parallel, so the kernel runs through OpenMP (libomp).
// CHECK-DAG: out: RMS {{.*}} pass
// CHECK-DAG: lse: RMS {{.*}} pass
// CHECK-DAG: inputs: rand 3 (seed 3)
// CHECK: [1 1 1]
// The kernel is plain upstream MLIR (no rock ops), written from the same
// template as the other rock-run-*.mlir kernels; it tests rock-run, not the
// compiler.
module attributes {rock.harness = {t = "f32", g = 2 : i64, num_heads_q = 4 : i64, num_heads_kv = 2 : i64, seq_len_q = 4 : i64, seq_len_k = 6 : i64, head_dim_qk = 4 : i64, head_dim_v = 3 : i64, causal = true, return_lse = true, split_kv = 1 : i64, rand = "3", rand_type = "float", rand_min = -1.0 : f64, rand_max = 1.0 : f64}} {
  func.func private @score(%q: memref<128xf32>, %k: memref<96xf32>, %b: index, %bkv: index, %i: index, %j: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cD = arith.constant 4 : index
    %cSq = arith.constant 4 : index
    %cSk = arith.constant 6 : index
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
      %x9 = memref.load %q[%t4] : memref<128xf32>
      %x10 = memref.load %k[%t8] : memref<96xf32>
      %p = arith.mulf %x9, %x10 : f32
      %a = arith.addf %acc, %p : f32
      scf.yield %a : f32
    }
    return %s : f32
  }
  func.func @rock_attention(%q: memref<128xf32>, %k: memref<96xf32>, %v: memref<72xf32>, %lse: memref<32xf32>, %out: memref<96xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cB = arith.constant 8 : index
    %cR = arith.constant 2 : index
    %cHq = arith.constant 4 : index
    %cS = arith.constant 1 : index
    %cSq = arith.constant 4 : index
    %cSk = arith.constant 6 : index
    %cSkm1 = arith.constant 5 : index
    %cDv = arith.constant 3 : index
    %cChunk = arith.constant 6 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    scf.parallel (%b) = (%c0) to (%cB) step (%c1) {
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
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<128xf32>, memref<96xf32>, index, index, index, index) -> f32
            %mx = arith.maximumf %acc, %sc : f32
            scf.yield %mx : f32
          }
          %empty = arith.cmpf oeq, %m, %ninf : f32
          %msafe = arith.select %empty, %zero, %m : f32
          %l = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %zero) -> (f32) {
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<128xf32>, memref<96xf32>, index, index, index, index) -> f32
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
              %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<128xf32>, memref<96xf32>, index, index, index, index) -> f32
              %x = arith.subf %sc, %msafe : f32
              %p = math.exp %x : f32
              %t11 = arith.muli %bkv, %cSk : index
              %t12 = arith.addi %t11, %j : index
              %t13 = arith.muli %t12, %cDv : index
              %t14 = arith.addi %t13, %e : index
              %x15 = memref.load %v[%t14] : memref<72xf32>
              %pv = arith.mulf %p, %x15 : f32
              %a = arith.addf %acc, %pv : f32
              scf.yield %a : f32
            }
            %div = arith.divf %o, %l : f32
            %res = arith.select %lzero, %zero, %div : f32
            %t16 = arith.muli %row, %cDv : index
            %t17 = arith.addi %t16, %e : index
            memref.store %res, %out[%t17] : memref<96xf32>
          }
          %logl = math.log %l : f32
          %lv = arith.addf %m, %logl : f32
          %lsev = arith.select %lzero, %ninf, %lv : f32
          memref.store %lsev, %lse[%row] : memref<32xf32>
        }
      }
    }
    return
  }
}
