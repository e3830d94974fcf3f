// RUN: rock-run %s -v | FileCheck %s
// Causal with prefix offsets {-1, 0, 3}, KV cache {4, 1, 20 (clamped to 8)},
// sliding window 4, split 2. The window looks back from the KV-cache bound
// (keys [0, 4], [0, 1], [4, 8]), not from each row's causal bound: in g = 2
// row 0 (causal bound 3) is fully masked and row 1 sees key 4 alone. Row 0
// of g = 0 is fully masked too (O = 0, LSE = -inf in kernel and reference;
// matching infinities pass).
// CHECK-DAG: lse: RMS {{.*}} pass
// CHECK: [1 1 1]
// The kernel is plain upstream MLIR (no rock ops), written from the same
// template as the other rock-run-*.mlir kernels; it tests rock-run, not the
// compiler.
module attributes {rock.harness = {t = "f32", g = 3 : i64, num_heads_q = 1 : i64, num_heads_kv = 1 : i64, seq_len_q = 3 : i64, seq_len_k = 9 : i64, head_dim_qk = 4 : i64, head_dim_v = 4 : i64, causal = true, return_lse = true, split_kv = 2 : i64, current_seq_len = array<i64: 4, 1, 20>, prefix_offset = array<i64: -1, 0, 3>, sliding_window_size = 4 : i64, rand = "2", rand_type = "float", relDiff_threshold = 5.0e-6 : f64}} {
  func.func private @score(%q: memref<36xf32>, %k: memref<108xf32>, %b: index, %bkv: index, %i: index, %j: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cD = arith.constant 4 : index
    %cSq = arith.constant 3 : index
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
      %x9 = memref.load %q[%t4] : memref<36xf32>
      %x10 = memref.load %k[%t8] : memref<108xf32>
      %p = arith.mulf %x9, %x10 : f32
      %a = arith.addf %acc, %p : f32
      scf.yield %a : f32
    }
    return %s : f32
  }
  func.func @rock_attention(%q: memref<36xf32>, %k: memref<108xf32>, %v: memref<108xf32>, %cur: memref<3xi32>, %pre: memref<3xi32>, %lse: memref<18xf32>, %out: memref<72xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cB = arith.constant 3 : index
    %cR = arith.constant 1 : index
    %cHq = arith.constant 1 : index
    %cS = arith.constant 2 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 9 : index
    %cSkm1 = arith.constant 8 : index
    %cDv = arith.constant 4 : index
    %cChunk = arith.constant 5 : index
    %cW = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    scf.for %b = %c0 to %cB step %c1 {
      %bkv = arith.divui %b, %cR : index
      %g = arith.divui %b, %cHq : index
      %curi = memref.load %cur[%g] : memref<3xi32>
      %curx = arith.index_cast %curi : i32 to index
      %last0 = arith.minsi %cSkm1, %curx : index
      %prei = memref.load %pre[%g] : memref<3xi32>
      %prex = arith.index_cast %prei : i32 to index
      scf.for %s = %c0 to %cS step %c1 {
        %jlo0 = arith.muli %s, %cChunk : index
        %s1 = arith.addi %s, %c1 : index
        %jhi0 = arith.muli %s1, %cChunk : index
        %jhi = arith.minsi %jhi0, %cSk : index
        scf.for %i = %c0 to %cSq step %c1 {
          %ci = arith.addi %i, %prex : index
          %last = arith.minsi %last0, %ci : index
          %wlo = arith.subi %last0, %cW : index
          %jlo = arith.maxsi %jlo0, %wlo : index
          %lastp1 = arith.addi %last, %c1 : index
          %jend = arith.minsi %jhi, %lastp1 : index
          %m = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %ninf) -> (f32) {
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<36xf32>, memref<108xf32>, index, index, index, index) -> f32
            %mx = arith.maximumf %acc, %sc : f32
            scf.yield %mx : f32
          }
          %empty = arith.cmpf oeq, %m, %ninf : f32
          %msafe = arith.select %empty, %zero, %m : f32
          %l = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %zero) -> (f32) {
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<36xf32>, memref<108xf32>, index, index, index, index) -> f32
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
              %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<36xf32>, memref<108xf32>, index, index, index, index) -> f32
              %x = arith.subf %sc, %msafe : f32
              %p = math.exp %x : f32
              %t11 = arith.muli %bkv, %cSk : index
              %t12 = arith.addi %t11, %j : index
              %t13 = arith.muli %t12, %cDv : index
              %t14 = arith.addi %t13, %e : index
              %x15 = memref.load %v[%t14] : memref<108xf32>
              %pv = arith.mulf %p, %x15 : f32
              %a = arith.addf %acc, %pv : f32
              scf.yield %a : f32
            }
            %div = arith.divf %o, %l : f32
            %res = arith.select %lzero, %zero, %div : f32
            %t16 = arith.muli %row, %cDv : index
            %t17 = arith.addi %t16, %e : index
            memref.store %res, %out[%t17] : memref<72xf32>
          }
          %logl = math.log %l : f32
          %lv = arith.addf %m, %logl : f32
          %lsev = arith.select %lzero, %ninf, %lv : f32
          memref.store %lsev, %lse[%row] : memref<18xf32>
        }
      }
    }
    return
  }
  func.func @rock_attention_combine(%op: memref<72xf32>, %lp: memref<18xf32>, %of: memref<36xf32>, %lf: memref<9xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cB = arith.constant 3 : index
    %cS = arith.constant 2 : index
    %cSq = arith.constant 3 : index
    %cDv = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    scf.for %b = %c0 to %cB step %c1 {
      scf.for %i = %c0 to %cSq step %c1 {
        %bs0 = arith.muli %b, %cS : index
        %m = scf.for %s = %c0 to %cS step %c1 iter_args(%acc = %ninf) -> (f32) {
          %r0 = arith.addi %bs0, %s : index
          %r1 = arith.muli %r0, %cSq : index
          %r = arith.addi %r1, %i : index
          %l = memref.load %lp[%r] : memref<18xf32>
          %mx = arith.maximumf %acc, %l : f32
          scf.yield %mx : f32
        }
        %empty = arith.cmpf oeq, %m, %ninf : f32
        %msafe = arith.select %empty, %zero, %m : f32
        %sw = scf.for %s = %c0 to %cS step %c1 iter_args(%acc = %zero) -> (f32) {
          %r0 = arith.addi %bs0, %s : index
          %r1 = arith.muli %r0, %cSq : index
          %r = arith.addi %r1, %i : index
          %l = memref.load %lp[%r] : memref<18xf32>
          %x = arith.subf %l, %msafe : f32
          %wgt = math.exp %x : f32
          %a = arith.addf %acc, %wgt : f32
          scf.yield %a : f32
        }
        %fr0 = arith.muli %b, %cSq : index
        %fr = arith.addi %fr0, %i : index
        %fbase = arith.muli %fr, %cDv : index
        scf.for %e = %c0 to %cDv step %c1 {
          %num = scf.for %s = %c0 to %cS step %c1 iter_args(%acc = %zero) -> (f32) {
            %r0 = arith.addi %bs0, %s : index
            %r1 = arith.muli %r0, %cSq : index
            %r = arith.addi %r1, %i : index
            %l = memref.load %lp[%r] : memref<18xf32>
            %dead = arith.cmpf oeq, %l, %ninf : f32
            %x = arith.subf %l, %msafe : f32
            %wgt = math.exp %x : f32
            %ob = arith.muli %r, %cDv : index
            %oi = arith.addi %ob, %e : index
            %ov = memref.load %op[%oi] : memref<72xf32>
            %t = arith.mulf %wgt, %ov : f32
            %t2 = arith.select %dead, %zero, %t : f32
            %a = arith.addf %acc, %t2 : f32
            scf.yield %a : f32
          }
          %q = arith.divf %num, %sw : f32
          %res = arith.select %empty, %zero, %q : f32
          %fi = arith.addi %fbase, %e : index
          memref.store %res, %of[%fi] : memref<36xf32>
        }
        %logw = math.log %sw : f32
        %lv = arith.addf %m, %logw : f32
        %lres = arith.select %empty, %ninf, %lv : f32
        memref.store %lres, %lf[%fr] : memref<9xf32>
      }
    }
    return
  }
}
