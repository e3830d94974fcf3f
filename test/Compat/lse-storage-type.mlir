// REQUIRES: mlir-runner
// Follows rocMLIR's mlir/test/rocmlir-gen/attention-splitkv-host-f32-combine.mlir:
// rocmlir-gen stores the LSE in the output's type (f16 / bf16 partial LSEs of
// a split-KV kernel), so rock.attention accepts an f16 or bf16 lse as well as
// f32: rock computes it in f32 and rounds it on the store (every target).
// All scores are 1 (Q = K = 0.25, Dqk = 16), so each split's LSE is
// 1 + ln 32 = 4.465736: 4.46484 in f16, 4.46875 in bf16; O is V = 1.
// RUN: rock-opt %s --rock-cpu-pipeline | mlir-runner -e main -entry-point-result=void %mlir_runner_libs | FileCheck %s
// The GPU lowerings take it too (compile only).
// RUN: sed -e 's/^module {/module attributes {mhal.arch = "sm_90"} {/' %s | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s --check-prefix=GPU
// RUN: sed -e 's/^module {/module attributes {mhal.arch = "gfx942"} {/' %s | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s --check-prefix=GPU
// GPU: gpu.binary

// CHECK: 4.46484
// CHECK-NEXT: 4.46484
// CHECK-NEXT: 4.46875
// CHECK-NEXT: 4.46875
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^}}1{{$}}

module {
  func.func @k16(%q: memref<1x4x16xf16>, %k: memref<1x16x64xf16>, %v: memref<1x64x16xf16>, %lse: memref<2x4xf16>, %out: memref<2x4x16xf16>) attributes {llvm.emit_c_interface} {
    rock.attention {
      qk = %q * %k : memref<1x4x16xf16>, memref<1x16x64xf16>
      lse = %lse : memref<2x4xf16>
      %out = softmax(qk) * %v : memref<1x64x16xf16> -> memref<2x4x16xf16>
    } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 2 : i32}
    return
  }
  func.func @kbf(%q: memref<1x4x16xbf16>, %k: memref<1x16x64xbf16>, %v: memref<1x64x16xbf16>, %lse: memref<2x4xbf16>, %out: memref<2x4x16xbf16>) attributes {llvm.emit_c_interface} {
    rock.attention {
      qk = %q * %k : memref<1x4x16xbf16>, memref<1x16x64xbf16>
      lse = %lse : memref<2x4xbf16>
      %out = softmax(qk) * %v : memref<1x64x16xbf16> -> memref<2x4x16xbf16>
    } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 2 : i32}
    return
  }
  func.func @main() {
    %qv = arith.constant 0.25 : f16
    %one = arith.constant 1.0 : f16
    %q = memref.alloc() : memref<1x4x16xf16>
    %k = memref.alloc() : memref<1x16x64xf16>
    %v = memref.alloc() : memref<1x64x16xf16>
    %l = memref.alloc() : memref<2x4xf16>
    %o = memref.alloc() : memref<2x4x16xf16>
    linalg.fill ins(%qv : f16) outs(%q : memref<1x4x16xf16>)
    linalg.fill ins(%qv : f16) outs(%k : memref<1x16x64xf16>)
    linalg.fill ins(%one : f16) outs(%v : memref<1x64x16xf16>)
    call @k16(%q, %k, %v, %l, %o) : (memref<1x4x16xf16>, memref<1x16x64xf16>, memref<1x64x16xf16>, memref<2x4xf16>, memref<2x4x16xf16>) -> ()
    %qb = arith.constant 0.25 : bf16
    %oneb = arith.constant 1.0 : bf16
    %q2 = memref.alloc() : memref<1x4x16xbf16>
    %k2 = memref.alloc() : memref<1x16x64xbf16>
    %v2 = memref.alloc() : memref<1x64x16xbf16>
    %l2 = memref.alloc() : memref<2x4xbf16>
    %o2 = memref.alloc() : memref<2x4x16xbf16>
    linalg.fill ins(%qb : bf16) outs(%q2 : memref<1x4x16xbf16>)
    linalg.fill ins(%qb : bf16) outs(%k2 : memref<1x16x64xbf16>)
    linalg.fill ins(%oneb : bf16) outs(%v2 : memref<1x64x16xbf16>)
    call @kbf(%q2, %k2, %v2, %l2, %o2) : (memref<1x4x16xbf16>, memref<1x16x64xbf16>, memref<1x64x16xbf16>, memref<2x4xbf16>, memref<2x4x16xbf16>) -> ()
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c15 = arith.constant 15 : index
    %a0 = memref.load %l[%c0, %c0] : memref<2x4xf16>
    %a1 = memref.load %l[%c1, %c3] : memref<2x4xf16>
    %b0 = memref.load %l2[%c0, %c0] : memref<2x4xbf16>
    %b1 = memref.load %l2[%c1, %c3] : memref<2x4xbf16>
    %o0 = memref.load %o[%c0, %c0, %c0] : memref<2x4x16xf16>
    %o1 = memref.load %o2[%c1, %c3, %c15] : memref<2x4x16xbf16>
    %a0f = arith.extf %a0 : f16 to f32
    %a1f = arith.extf %a1 : f16 to f32
    %b0f = arith.extf %b0 : bf16 to f32
    %b1f = arith.extf %b1 : bf16 to f32
    %o0f = arith.extf %o0 : f16 to f32
    %o1f = arith.extf %o1 : bf16 to f32
    vector.print %a0f : f32
    vector.print %a1f : f32
    vector.print %b0f : f32
    vector.print %b1f : f32
    vector.print %o0f : f32
    vector.print %o1f : f32
    return
  }
}
