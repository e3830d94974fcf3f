// RUN: rock-run %s -v | FileCheck %s
// i8 Q/K with quantBias/quantScale, f16 scale and bias, f16 V/out: argument
// order Q, K, V, quantBias, quantScale, scale, bias, LSE, out. The kernel
// dequantises (s - quantBias) in i32, converts to f16 and applies the region
// in f16; the harness asks for mlir-strict, so the reference rounds alike.
// CHECK-DAG: out: RMS {{.*}} (threshold 0.001, pass)
// CHECK-DAG: lse: RMS {{.*}} pass
// CHECK: [1 1 1]
// The kernel is plain upstream MLIR (no rock ops), written from the same
// template as the other rock-run-*.mlir kernels; it tests rock-run, not the
// compiler.
module attributes {rock.harness = {t = "i8", g = 1 : i64, num_heads_q = 2 : i64, num_heads_kv = 1 : i64, seq_len_q = 3 : i64, seq_len_k = 6 : i64, head_dim_qk = 8 : i64, head_dim_v = 4 : i64, causal = false, return_lse = true, split_kv = 1 : i64, with_attn_scale = true, with_attn_bias = true, rand = "4", rand_min_int = -3 : i64, rand_max_int = 3 : i64, verifier = "mlir-strict"}} {
  func.func private @score(%q: memref<48xi8>, %k: memref<48xi8>, %qb: memref<1xi8>, %qs: memref<1xf16>, %scale: memref<36xf16>, %bias: memref<36xf16>, %b: index, %bkv: index, %i: index, %j: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cD = arith.constant 8 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 6 : index
    %zero = arith.constant 0 : i32
    %s = scf.for %dd = %c0 to %cD step %c1 iter_args(%acc = %zero) -> (i32) {
      %t1 = arith.muli %b, %cSq : index
      %t2 = arith.addi %t1, %i : index
      %t3 = arith.muli %t2, %cD : index
      %t4 = arith.addi %t3, %dd : index
      %t5 = arith.muli %bkv, %cD : index
      %t6 = arith.addi %t5, %dd : index
      %t7 = arith.muli %t6, %cSk : index
      %t8 = arith.addi %t7, %j : index
      %x9 = memref.load %q[%t4] : memref<48xi8>
      %x10 = memref.load %k[%t8] : memref<48xi8>
      %x11 = arith.extsi %x9 : i8 to i32
      %x12 = arith.extsi %x10 : i8 to i32
      %p = arith.muli %x11, %x12 : i32
      %a = arith.addi %acc, %p : i32
      scf.yield %a : i32
    }
    %t13 = arith.muli %b, %cSq : index
    %t14 = arith.addi %t13, %i : index
    %t15 = arith.muli %t14, %cSk : index
    %t16 = arith.addi %t15, %j : index
    %qb8 = memref.load %qb[%c0] : memref<1xi8>
    %qb32 = arith.extsi %qb8 : i8 to i32
    %deq = arith.subi %s, %qb32 : i32
    %deqh = arith.sitofp %deq : i32 to f16
    %qsv = memref.load %qs[%c0] : memref<1xf16>
    %r0 = arith.mulf %deqh, %qsv : f16
    %x17 = memref.load %scale[%t16] : memref<36xf16>
    %r18 = arith.mulf %r0, %x17 : f16
    %x19 = memref.load %bias[%t16] : memref<36xf16>
    %r20 = arith.addf %r18, %x19 : f16
    %r21 = arith.extf %r20 : f16 to f32
    return %r21 : f32
  }
  func.func @rock_attention(%q: memref<48xi8>, %k: memref<48xi8>, %v: memref<24xf16>, %qb: memref<1xi8>, %qs: memref<1xf16>, %scale: memref<36xf16>, %bias: memref<36xf16>, %lse: memref<6xf32>, %out: memref<24xf16>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cB = arith.constant 2 : index
    %cR = arith.constant 2 : index
    %cHq = arith.constant 2 : index
    %cS = arith.constant 1 : index
    %cSq = arith.constant 3 : index
    %cSk = arith.constant 6 : index
    %cSkm1 = arith.constant 5 : index
    %cDv = arith.constant 4 : index
    %cChunk = arith.constant 6 : index
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
          %last = arith.addi %last0, %c0 : index
          %jlo = arith.addi %jlo0, %c0 : index
          %lastp1 = arith.addi %last, %c1 : index
          %jend = arith.minsi %jhi, %lastp1 : index
          %m = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %ninf) -> (f32) {
            %sc = func.call @score(%q, %k, %qb, %qs, %scale, %bias, %b, %bkv, %i, %j) : (memref<48xi8>, memref<48xi8>, memref<1xi8>, memref<1xf16>, memref<36xf16>, memref<36xf16>, index, index, index, index) -> f32
            %mx = arith.maximumf %acc, %sc : f32
            scf.yield %mx : f32
          }
          %empty = arith.cmpf oeq, %m, %ninf : f32
          %msafe = arith.select %empty, %zero, %m : f32
          %l = scf.for %j = %jlo to %jend step %c1 iter_args(%acc = %zero) -> (f32) {
            %sc = func.call @score(%q, %k, %qb, %qs, %scale, %bias, %b, %bkv, %i, %j) : (memref<48xi8>, memref<48xi8>, memref<1xi8>, memref<1xf16>, memref<36xf16>, memref<36xf16>, index, index, index, index) -> f32
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
              %sc = func.call @score(%q, %k, %qb, %qs, %scale, %bias, %b, %bkv, %i, %j) : (memref<48xi8>, memref<48xi8>, memref<1xi8>, memref<1xf16>, memref<36xf16>, memref<36xf16>, index, index, index, index) -> f32
              %x = arith.subf %sc, %msafe : f32
              %p = math.exp %x : f32
              %t22 = arith.muli %bkv, %cSk : index
              %t23 = arith.addi %t22, %j : index
              %t24 = arith.muli %t23, %cDv : index
              %t25 = arith.addi %t24, %e : index
              %x26 = memref.load %v[%t25] : memref<24xf16>
              %x27 = arith.extf %x26 : f16 to f32
              %pv = arith.mulf %p, %x27 : f32
              %a = arith.addf %acc, %pv : f32
              scf.yield %a : f32
            }
            %div = arith.divf %o, %l : f32
            %res = arith.select %lzero, %zero, %div : f32
            %t28 = arith.muli %row, %cDv : index
            %t29 = arith.addi %t28, %e : index
            %resh = arith.truncf %res : f32 to f16
            memref.store %resh, %out[%t29] : memref<24xf16>
          }
          %logl = math.log %l : f32
          %lv = arith.addf %m, %logl : f32
          %lsev = arith.select %lzero, %ninf, %lv : f32
          memref.store %lsev, %lse[%row] : memref<6xf32>
        }
      }
    }
    return
  }
}
