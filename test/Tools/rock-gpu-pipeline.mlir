// rock-gpu-pipeline: rock IR to a host function of gpu.launch_func ops and
// gpu.binary objects holding PTX for the module's mhal.arch, with no libdevice
// call left (exp2 / log2 are the hardware's approximate instructions). The
// decode keeps its combine launch (rock.gpu_fused_combine = false).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_combine=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s
// The same from upstream mlir-opt with the plugin.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_combine=false \
// RUN:   | %plugin_env mlir-opt --load-dialect-plugin=%rock_plugin --load-pass-plugin=%rock_plugin --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s

// No libdevice call anywhere, whatever toolkit the environment has.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_combine=false \
// RUN:   | env -u CUDA_HOME -u CUDA_ROOT PATH=/usr/bin:/bin rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s --check-prefix=NOLIB
// NOLIB: gpu.binary
// NOLIB-NOT: __nv_

// The host function keeps rock-gen's flat arguments; its body only launches
// (kernel, then the combine of the internal split: 32 partitions of the 2
// KV groups, one wave) on device scratch: f32 partial outputs, f64 partial
// LSEs (the weights keep f32 accuracy); the kernel's parameters Q, K, V
// follow their order of first use (K's first tile is staged before Q). The
// decode kernel runs on the tensor cores (cp.async staging, mma.sync).
// CHECK: module attributes {gpu.container_module, mhal.arch = "sm_90"
// CHECK: func.func @rock_attention(%arg0: memref<1024xbf16>, %arg1: memref<1048576xbf16>, %arg2: memref<1048576xbf16>, %arg3: memref<1024xbf16>)
// CHECK: %[[PO:.*]] = memref.alloc() {{.*}} : memref<256x1x128xf32>
// CHECK: %[[PL:.*]] = memref.alloc() {{.*}} : memref<256x1xf64>
// CHECK: gpu.launch_func @[[K0:.*]]::@{{.*}} blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%arg{{[0-2]}} : memref<{{[0-9]+}}xbf16>, %arg{{[0-2]}} : memref<{{[0-9]+}}xbf16>, %arg{{[0-2]}} : memref<{{[0-9]+}}xbf16>, %[[PO]] : memref<256x1x128xf32>, %[[PL]] : memref<256x1xf64>)
// CHECK: gpu.launch_func @[[K1:.*]]::@{{.*}} blocks in {{.*}} args(%[[PL]] : memref<256x1xf64>, %[[PO]] : memref<256x1x128xf32>, %arg3 : memref<1024xbf16>)
// CHECK: memref.dealloc %[[PO]]
// CHECK: memref.dealloc %[[PL]]
// CHECK-NEXT: return
// CHECK: gpu.binary @[[K0]] [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, {{.*}}assembly = "{{.*}}.target sm_90
// CHECK-SAME: cp.async.cg.shared.global
// CHECK-SAME: ld.global.v4
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: ex2.approx.ftz.f32
// CHECK-SAME: bar.sync
// CHECK-NOT: __nv_
// CHECK: gpu.binary @[[K1]]
// CHECK-SAME: ex2.approx.ftz.f32
// CHECK-NOT: __nv_

// The target comes from the module: none is an error (AMD targets: test/AMD).
// RUN: rock-gen -p | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=NOARCH
// NOARCH: error: rock-gpu-pipeline needs the module attribute mhal.arch (or rock.arch; e.g. rock-gen --arch sm_90)
