// REQUIRES: rocm-device-libs
// A hand-written gpu.launch kernel (workgroup memory, a barrier, an xor
// shuffle, math.exp from the device libraries) through the AMD tail of
// rock-gpu-pipeline: an hsaco for amdgcn-amd-amdhsa with the target id of
// rock.arch, a kernel symbol and its .kd descriptor, no undefined symbol, and
// resources below the hardware's limits.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-opt %s --pass-pipeline='builtin.module(gpu-kernel-outlining,rock-gpu-attach-target,rock-gpu-to-binary)' > %t/k.mlir
// RUN: FileCheck %s --check-prefix=MOD < %t/k.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/k.mlir %t/o | FileCheck %s --check-prefix=FILES
// RUN: llvm-readelf -h %t/o/launch_kernel.hsaco | FileCheck %s --check-prefix=ELF
// RUN: llvm-readelf --notes %t/o/launch_kernel.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: llvm-readelf --notes %t/o/launch_kernel.hsaco | python3 %rock_src/scripts/amdgpu_limits.py | FileCheck %s --check-prefix=LIMITS
// RUN: llvm-readelf -s %t/o/launch_kernel.hsaco | FileCheck %s --check-prefix=SYMS
// RUN: llvm-nm -u %t/o/launch_kernel.hsaco | count 0
// RUN: llvm-objdump -d --mcpu=gfx942 %t/o/launch_kernel.hsaco | FileCheck %s --check-prefix=ISA

// MOD: gpu.binary @launch_kernel [#gpu.object<#rocdl.target<O = 3, chip = "gfx942", features = "+sramecc,-xnack">, bin = "\7FELF
// FILES: launch_kernel.hsaco
// ELF: OS/ABI: AMDGPU - HSA
// ELF: Machine: EM_AMDGPU
// ELF: Flags: {{.*}}gfx942, xnack-, sramecc+
// NOTES: .group_segment_fixed_size: 1024
// NOTES: .name: launch_kernel
// NOTES: .symbol: launch_kernel.kd
// NOTES: .wavefront_size: 64
// NOTES: amdhsa.target: 'amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-'
// LIMITS: launch_kernel: vgpr {{[0-9]+}}/512 agpr {{[0-9]+}}/256 sgpr {{[0-9]+}}/108 lds 1024/65536 scratch 0 spills 0/0 wave 64: ok
// SYMS-DAG: FUNC GLOBAL PROTECTED {{.*}} launch_kernel{{$}}
// SYMS-DAG: OBJECT GLOBAL DEFAULT {{.*}} launch_kernel.kd{{$}}
// ISA: ds_write_b32
// ISA: s_barrier
// ISA: v_exp_f32
// ISA: ds_bpermute_b32

module attributes {rock.arch = "amdgcn-amd-amdhsa:gfx942:sramecc+:xnack-"} {
  func.func @launch(%a: memref<256xf32>, %b: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
               workgroup(%sm : memref<256xf32, #gpu.address_space<workgroup>>) {
      %v = memref.load %a[%tx] : memref<256xf32>
      memref.store %v, %sm[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c255 = arith.constant 255 : index
      %r = arith.subi %c255, %tx : index
      %w = memref.load %sm[%r] : memref<256xf32, #gpu.address_space<workgroup>>
      %e = math.exp %w : f32
      %one = arith.constant 1 : i32
      %width = arith.constant 32 : i32
      %s, %ok = gpu.shuffle xor %e, %one, %width : f32
      memref.store %s, %b[%tx] : memref<256xf32>
      gpu.terminator
    }
    return
  }
}
