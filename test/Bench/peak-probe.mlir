// The compute-ceiling probe of bench/run.py: JIT kernels of independent
// multiply-add chains. On this host every kernel the CPU has gives a rate;
// for an AMX CPU (sapphirerapids) every kernel is at least generated, and
// the AMX one is pinned down to the tile instructions.
// RUN: rock-peak-probe --seconds 0.01 | FileCheck %s
// RUN: env ROCK_JIT_CPU=x86-64-v3 rock-peak-probe --seconds 0.01 | FileCheck %s --check-prefix=V3
// RUN: env ROCK_JIT_CPU=sapphirerapids rock-peak-probe --compile-only | FileCheck %s --check-prefix=SPR
// RUN: rock-peak-probe --print 4 | FileCheck %s --check-prefix=AMX-IR
// RUN: rock-peak-probe --print 4 | rock-opt --rock-cpu-pipeline | mlir-translate --mlir-to-llvmir | %llc -O3 -mcpu=sapphirerapids | FileCheck %s --check-prefix=AMX-ASM
// RUN: rock-peak-probe --print 2 | rock-opt --rock-cpu-pipeline | mlir-translate --mlir-to-llvmir | %llc -O3 -mcpu=znver4 | FileCheck %s --check-prefix=DOT-ASM
// RUN: %if amx %{ rock-peak-probe --seconds 0.01 | FileCheck %s --check-prefix=AMX-RATE %}

// CHECK: threads: {{[0-9]+}}
// CHECK: fma_f32_gflops: {{[0-9]+\.[0-9]}}
// V3: jit_cpu: x86-64-v3
// V3: fma_f32_gflops: {{[0-9]+\.[0-9]}}
// V3: dot_bf16_gflops: n/a
// V3: amx_bf16_gflops: n/a
// SPR: jit_cpu: sapphirerapids
// SPR: fma_f32_gflops: compiled
// SPR: dot_bf16_gflops: compiled
// SPR: dot_i8_gops: compiled
// SPR: amx_bf16_gflops: compiled
// SPR: amx_i8_gops: compiled
// AMX-IR: amx.tile_load
// AMX-IR: amx.tile_mulf
// AMX-ASM: ldtilecfg
// AMX-ASM: tdpbf16ps %tmm{{[0-9]}}, %tmm{{[0-9]}}, %tmm{{[0-9]}}
// AMX-ASM: tilerelease
// DOT-ASM-COUNT-16: vdpbf16ps %zmm
// AMX-RATE: amx_bf16_gflops: {{[0-9]+\.[0-9]}}
// AMX-RATE: amx_i8_gops: {{[0-9]+\.[0-9]}}
