// A perf_config's rock fields (docs/tuning.md) become the knobs' attributes
// on rock.gridwise_attention, the one place a perf_config is mapped onto
// the schedule knobs: path -> rock.gpu_accel (bool), keys ->
// rock.gpu_keys_per_group, lanes -> rock.gpu_lanes_min, stages ->
// rock.gpu_pipeline_stages, split -> rock.internal_split, wgmma ->
// rock.gpu_wgmma (bool), producer -> rock.gpu_wgmma_producer (bool), l2 ->
// rock.gpu_accel_l2_prefetch. A knob not given sets nothing.
// RUN: rock-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(rock-attention-to-gridwise)' \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @all
// CHECK: rock.gridwise_attention
// CHECK-SAME: mPerBlock = 64 : i32, nPerBlock = 32 : i32
// CHECK-SAME: rock.gpu_accel = false, rock.gpu_accel_l2_prefetch = 3 : i64, rock.gpu_keys_per_group = 8 : i64, rock.gpu_lanes_min = 8 : i64, rock.gpu_pipeline_stages = 2 : i64, rock.gpu_wgmma = true, rock.gpu_wgmma_producer = false, rock.internal_split = 4 : i64
func.func @all(%q: memref<1x100x16xf32>, %k: memref<1x16x64xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x100x16xf32>, memref<1x16x64xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v3:64,64,32,8,32,32,16,4,1,1,2,0,1:rock:path=simt,keys=8,lanes=8,stages=2,split=4,wgmma=1,producer=0,l2=3"}
  return
}

// -----

// path=tc is rock.gpu_accel = true; the other knobs stay unset.
// CHECK-LABEL: func.func @some
// CHECK: rock.gridwise_attention
// CHECK-SAME: rock.gpu_accel = true
// CHECK-NOT: rock.gpu_keys_per_group
// CHECK-NOT: rock.internal_split
func.func @some(%q: memref<1x100x16xf32>, %k: memref<1x16x64xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x100x16xf32>, memref<1x16x64xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v3:64,64,32,8,32,32,16,4,1,1,2,0,1:rock:path=tc"}
  return
}

// -----

// Without rock fields: no knob attribute.
// CHECK-LABEL: func.func @none
// CHECK: rock.gridwise_attention
// CHECK-NOT: rock.gpu_
// CHECK-NOT: rock.internal_split
// CHECK: return
func.func @none(%q: memref<1x100x16xf32>, %k: memref<1x16x64xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x100x16xf32>, memref<1x16x64xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v3:64,64,32,8,32,32,16,4,1,1,2,0,1"}
  return
}
