// RUN: rock-run %s | FileCheck %s
// RUN: rm -rf %t.dump && rock-run %s --dump-dir %t.dump
// RUN: head -c 128 %t.dump/out.npy | FileCheck %s --check-prefix=NPY
// RUN: %python -c "import struct, sys; d = sys.argv[1]; r = lambda f, c, n: struct.unpack('<%%d%%s' %% (n, c), open(d + f, 'rb').read()[128:]); o = r('/out.npy', 'f', 24); f = r('/ref_out.npy', 'd', 24); print('max diff %%.1e' %% max(abs(a - b) for a, b in zip(o, f)))" %t.dump | FileCheck %s --check-prefix=DATA
// transQ/K/V/O, GQA 2/1, split 2 without a module combine: the host combine
// reads [B*S, Dv, Sq] partials; out.npy is dumped in canonical [B, Sq, Dv].
// CHECK: [1 1 1]
// NPY: NUMPY
// NPY-SAME: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }
// The dumped result (canonical layout) matches the f64 reference dump.
// DATA: max diff {{[0-9.]+}}e-0{{[6-9]}}
// The kernel is plain upstream MLIR (no rock ops), written from the same
// template as the other rock-run-*.mlir kernels; it tests rock-run, not the
// compiler.
module attributes {rock.harness = {t = "f32", g = 1 : i64, num_heads_q = 2 : i64, num_heads_kv = 1 : i64, seq_len_q = 3 : i64, seq_len_k = 7 : i64, head_dim_qk = 5 : i64, head_dim_v = 4 : i64, causal = true, return_lse = true, split_kv = 2 : i64, transQ = true, transK = true, transV = true, transO = true, rand = "8", rand_type = "float", relDiff_threshold = 5.0e-6 : f64}} {
  func.func private @score(%q: memref<30xf32>, %k: memref<35xf32>, %b: index, %bkv: index, %i: index, %j: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cD = arith.constant 5 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 7 : index
    %zero = arith.constant 0.0 : f32
    %s = scf.for %dd = %c0 to %cD step %c1 iter_args(%acc = %zero) -> (f32) {
      %t1 = arith.muli %b, %cD : index
      %t2 = arith.addi %t1, %dd : index
      %t3 = arith.muli %t2, %cSq : index
      %t4 = arith.addi %t3, %i : index
      %t5 = arith.muli %bkv, %cSk : index
      %t6 = arith.addi %t5, %j : index
      %t7 = arith.muli %t6, %cD : index
      %t8 = arith.addi %t7, %dd : index
      %x9 = memref.load %q[%t4] : memref<30xf32>
      %x10 = memref.load %k[%t8] : memref<35xf32>
      %p = arith.mulf %x9, %x10 : f32
      %a = arith.addf %acc, %p : f32
      scf.yield %a : f32
    }
    return %s : f32
  }
  func.func @rock_attention(%q: memref<30xf32>, %k: memref<35xf32>, %v: memref<28xf32>, %lse: memref<12xf32>, %out: memref<48xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cB = arith.constant 2 : index
    %cR = arith.constant 2 : index
    %cHq = arith.constant 2 : index
    %cS = arith.constant 2 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 7 : index
    %cSkm1 = arith.constant 6 : index
    %cDv = arith.constant 4 : index
    %cChunk = arith.constant 4 : index
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
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<30xf32>, memref<35xf32>, index, index, index, index) -> f32
            %mx = arith.maximumf %acc, %sc : f32
            scf.yield %mx : f32
          }
          %empty = arith.cmpf oeq, %m, %ninf : f32
          %msafe = arith.select %empty, %zero, %m : f32
          %l = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %zero) -> (f32) {
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<30xf32>, memref<35xf32>, index, index, index, index) -> f32
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
              %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<30xf32>, memref<35xf32>, index, index, index, index) -> f32
              %x = arith.subf %sc, %msafe : f32
              %p = math.exp %x : f32
              %t11 = arith.muli %bkv, %cDv : index
              %t12 = arith.addi %t11, %e : index
              %t13 = arith.muli %t12, %cSk : index
              %t14 = arith.addi %t13, %j : index
              %x15 = memref.load %v[%t14] : memref<28xf32>
              %pv = arith.mulf %p, %x15 : f32
              %a = arith.addf %acc, %pv : f32
              scf.yield %a : f32
            }
            %div = arith.divf %o, %l : f32
            %res = arith.select %lzero, %zero, %div : f32
            %t16 = arith.muli %bs, %cDv : index
            %t17 = arith.addi %t16, %e : index
            %t18 = arith.muli %t17, %cSq : index
            %t19 = arith.addi %t18, %i : index
            memref.store %res, %out[%t19] : memref<48xf32>
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
