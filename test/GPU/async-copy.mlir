// rock-gpu-async-copy (passes/gpu/async_copy.c): staging stores marked
// rock.async_copy become cp.async on NVIDIA when their 16-byte value is a
// global vector.load (nvgpu.device_async_copy) or an llvm.load through a
// page pointer (nvvm.cp.async.shared.global); any other marked store stays
// a plain store and loses the mark, as every marked store does on AMD.
// RUN: rock-opt --pass-pipeline='builtin.module(rock-gpu-async-copy)' %s | FileCheck %s
// RUN: sed 's/"sm_90"/"gfx942"/' %s | rock-opt --pass-pipeline='builtin.module(rock-gpu-async-copy)' | FileCheck %s --check-prefix=AMD

module attributes {rock.arch = "sm_90"} {
  // CHECK-LABEL: func.func @contiguous
  // CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 8 {bypassL1} : memref<1024xbf16> to memref<64x136xbf16, #gpu.address_space<workgroup>>
  // CHECK-NOT: vector.load
  // CHECK-NOT: vector.store
  // AMD-LABEL: func.func @contiguous
  // AMD: vector.load
  // AMD: vector.store {{.*}} {alignment = 16 : i64} :
  // AMD-NOT: async
  func.func @contiguous(%g: memref<1024xbf16>, %s: memref<64x136xbf16, #gpu.address_space<workgroup>>, %i: index, %r: index, %c: index) {
    %v = vector.load %g[%i] {alignment = 16 : i64} : memref<1024xbf16>, vector<8xbf16>
    vector.store %v, %s[%r, %c] {alignment = 16 : i64, rock.async_copy} : memref<64x136xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    return
  }
  // The workgroup element's byte address (aligned pointer + (r·136 + c)·2)
  // and the page pointer in the global space.
  // CHECK-LABEL: func.func @paged
  // CHECK: memref.extract_aligned_pointer_as_index
  // CHECK: arith.constant 136 : index
  // CHECK: llvm.inttoptr {{.*}} : i64 to !llvm.ptr<3>
  // CHECK: llvm.addrspacecast {{.*}} : !llvm.ptr to !llvm.ptr<1>
  // CHECK: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK-NOT: llvm.load
  // CHECK-NOT: vector.store
  func.func @paged(%p: !llvm.ptr, %s: memref<64x136xbf16, #gpu.address_space<workgroup>>, %r: index, %c: index) {
    %v = llvm.load %p {alignment = 16 : i64} : !llvm.ptr -> vector<8xbf16>
    vector.store %v, %s[%r, %c] {alignment = 16 : i64, rock.async_copy} : memref<64x136xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    return
  }
  // Not a copy: 8 bytes, a value with another use, an unmarked store.
  // CHECK-LABEL: func.func @kept
  // CHECK: vector.store {{.*}} {alignment = 8 : i64} : memref<64x136xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
  // CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<64x136xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  // CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<64x136xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  // CHECK-NOT: async
  func.func @kept(%g: memref<1024xbf16>, %s: memref<64x136xbf16, #gpu.address_space<workgroup>>, %i: index, %r: index, %c: index) {
    %a = vector.load %g[%i] {alignment = 8 : i64} : memref<1024xbf16>, vector<4xbf16>
    vector.store %a, %s[%r, %c] {alignment = 8 : i64, rock.async_copy} : memref<64x136xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
    %b = vector.load %g[%i] {alignment = 16 : i64} : memref<1024xbf16>, vector<8xbf16>
    vector.store %b, %s[%r, %c] {alignment = 16 : i64, rock.async_copy} : memref<64x136xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    vector.store %b, %s[%c, %r] {alignment = 16 : i64} : memref<64x136xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    return
  }
}
