// RUN: not rock-run %s | FileCheck %s
// RUN: not rock-run %s -v | FileCheck %s --check-prefix=VERBOSE
// A deliberately wrong kernel: it forgets the final 1/l. rock-run must report
// a failed gate and exit 1.
// CHECK: [0 {{[01]}} 0]
// VERBOSE: out: RMS {{.*}} FAIL
// VERBOSE-NOT: {{\[[01] [01] [01]\]}}
// VERBOSE: [0 {{[01]}} 0]
// Hand-written kernel in upstream MLIR (no rock ops) that proves rock-run's
// harness; generated once, edited by hand where marked.
module attributes {rock.harness = {t = "f32", g = 1 : i64, num_heads_q = 1 : i64, num_heads_kv = 1 : i64, seq_len_q = 3 : i64, seq_len_k = 5 : i64, head_dim_qk = 8 : i64, head_dim_v = 8 : i64, causal = true, return_lse = false, split_kv = 1 : i64}} {
  func.func private @score(%q: memref<24xf32>, %k: memref<40xf32>, %b: index, %bkv: index, %i: index, %j: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cD = arith.constant 8 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 5 : index
    %zero = arith.constant 0.0 : f32
    %qrow0 = arith.muli %b, %cSq : index
    %qrow1 = arith.addi %qrow0, %i : index
    %qbase = arith.muli %qrow1, %cD : index
    %kb = arith.muli %bkv, %cD : index
    %s = scf.for %dd = %c0 to %cD step %c1 iter_args(%acc = %zero) -> (f32) {
      %qi = arith.addi %qbase, %dd : index
      %qv = memref.load %q[%qi] : memref<24xf32>
      %k0 = arith.addi %kb, %dd : index
      %k1 = arith.muli %k0, %cSk : index
      %ki = arith.addi %k1, %j : index
      %kv = memref.load %k[%ki] : memref<40xf32>
      %p = arith.mulf %qv, %kv : f32
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
      %last0 = arith.addi %cSkm1, %c0 : index
      scf.for %s = %c0 to %cS step %c1 {
        %jlo = arith.muli %s, %cChunk : index
        %s1 = arith.addi %s, %c1 : index
        %jhi0 = arith.muli %s1, %cChunk : index
        %jhi = arith.minsi %jhi0, %cSk : index
        scf.for %i = %c0 to %cSq step %c1 {
          %last = arith.minsi %last0, %i : index
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
          %obase = arith.muli %row, %cDv : index
          scf.for %e = %c0 to %cDv step %c1 {
            %o = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %zero) -> (f32) {
              %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<24xf32>, memref<40xf32>, index, index, index, index) -> f32
              %x = arith.subf %sc, %msafe : f32
              %p = math.exp %x : f32
              %v0 = arith.muli %bkv, %cSk : index
              %v1 = arith.addi %v0, %j : index
              %v2 = arith.muli %v1, %cDv : index
              %vi = arith.addi %v2, %e : index
              %vv = memref.load %v[%vi] : memref<40xf32>
              %pv = arith.mulf %p, %vv : f32
              %a = arith.addf %acc, %pv : f32
              scf.yield %a : f32
            }
            // BUG (deliberate): the 1/l normalisation is missing.
            %div = arith.addf %o, %zero : f32
            %res = arith.select %lzero, %zero, %div : f32
            %oi = arith.addi %obase, %e : index
            memref.store %res, %out[%oi] : memref<24xf32>
          }
        }
      }
    }
    return
  }
}
