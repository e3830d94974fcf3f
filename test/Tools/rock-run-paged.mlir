// RUN: rock-run %s | FileCheck %s
// RUN: rock-run %s --dump-dir %t.dump && ls %t.dump | FileCheck %s --check-prefix=DUMP
// Paged K/V: the kernel reads K and V through i64 page tables
// (llvm.inttoptr + llvm.load) from shuffled pools; head-major [Hkv][Sk][D]
// per batch, 8 pages of 8 elements per batch.
// CHECK: [1 1 1]
// DUMP: config.json
// DUMP: k.npy
// DUMP: k_page_pool.npy
// DUMP: k_page_table.npy
// DUMP: out.npy
// DUMP: q.npy
// DUMP: ref_out.npy
// DUMP: v.npy
// The kernel is plain upstream MLIR (no rock ops), written from the same
// template as the other rock-run-*.mlir kernels; it tests rock-run, not the
// compiler.
module attributes {rock.harness = {t = "f32", g = 2 : i64, num_heads_q = 2 : i64, num_heads_kv = 2 : i64, seq_len_q = 3 : i64, seq_len_k = 8 : i64, head_dim_qk = 4 : i64, head_dim_v = 4 : i64, causal = true, return_lse = false, split_kv = 1 : i64, paged = true, num_pages = 8 : i64, page_size = 8 : i64, rand = "9"}} {
  func.func private @paged_load(%tab: memref<16xi64>, %bkv: index, %j: index, %x: index) -> f32 {
    %cHkv = arith.constant 2 : index
    %cSk = arith.constant 8 : index
    %cD = arith.constant 4 : index
    %cP = arith.constant 8 : index
    %cps = arith.constant 8 : index
    %gi = arith.divui %bkv, %cHkv : index
    %hi = arith.remui %bkv, %cHkv : index
    %t1 = arith.muli %hi, %cSk : index
    %t2 = arith.addi %t1, %j : index
    %t3 = arith.muli %t2, %cD : index
    %t4 = arith.addi %t3, %x : index
    %page = arith.divui %t4, %cps : index
    %off = arith.remui %t4, %cps : index
    %t5 = arith.muli %gi, %cP : index
    %t6 = arith.addi %t5, %page : index
    %addr = memref.load %tab[%t6] : memref<16xi64>
    %ptr = llvm.inttoptr %addr : i64 to !llvm.ptr
    %off64 = arith.index_cast %off : index to i64
    %ep = llvm.getelementptr %ptr[%off64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %val = llvm.load %ep : !llvm.ptr -> f32
    return %val : f32
  }
  func.func private @score(%q: memref<48xf32>, %k: memref<16xi64>, %b: index, %bkv: index, %i: index, %j: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cD = arith.constant 4 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %s = scf.for %dd = %c0 to %cD step %c1 iter_args(%acc = %zero) -> (f32) {
      %t7 = arith.muli %b, %cSq : index
      %t8 = arith.addi %t7, %i : index
      %t9 = arith.muli %t8, %cD : index
      %t10 = arith.addi %t9, %dd : index
      %x11 = func.call @paged_load(%k, %bkv, %j, %dd) : (memref<16xi64>, index, index, index) -> f32
      %x12 = memref.load %q[%t10] : memref<48xf32>
      %p = arith.mulf %x12, %x11 : f32
      %a = arith.addf %acc, %p : f32
      scf.yield %a : f32
    }
    return %s : f32
  }
  func.func @rock_attention(%q: memref<48xf32>, %k: memref<16xi64>, %v: memref<16xi64>, %out: memref<48xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cB = arith.constant 4 : index
    %cR = arith.constant 1 : index
    %cHq = arith.constant 2 : index
    %cS = arith.constant 1 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 8 : index
    %cSkm1 = arith.constant 7 : index
    %cDv = arith.constant 4 : index
    %cChunk = arith.constant 8 : index
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
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<48xf32>, memref<16xi64>, index, index, index, index) -> f32
            %mx = arith.maximumf %acc, %sc : f32
            scf.yield %mx : f32
          }
          %empty = arith.cmpf oeq, %m, %ninf : f32
          %msafe = arith.select %empty, %zero, %m : f32
          %l = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %zero) -> (f32) {
            %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<48xf32>, memref<16xi64>, index, index, index, index) -> f32
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
              %sc = func.call @score(%q, %k, %b, %bkv, %i, %j) : (memref<48xf32>, memref<16xi64>, index, index, index, index) -> f32
              %x = arith.subf %sc, %msafe : f32
              %p = math.exp %x : f32
              %vv = func.call @paged_load(%v, %bkv, %j, %e) : (memref<16xi64>, index, index, index) -> f32
              %pv = arith.mulf %p, %vv : f32
              %a = arith.addf %acc, %pv : f32
              scf.yield %a : f32
            }
            %div = arith.divf %o, %l : f32
            %res = arith.select %lzero, %zero, %div : f32
            %t13 = arith.muli %row, %cDv : index
            %t14 = arith.addi %t13, %e : index
            memref.store %res, %out[%t14] : memref<48xf32>
          }
        }
      }
    }
    return
  }
}
