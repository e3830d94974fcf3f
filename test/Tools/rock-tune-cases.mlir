// The shapes the GPU round trip tunes exhaustively (docs/tuning.md): at
// least 12 off the bench table, spanning GQA ratios 1-16, head dims 64, 128
// and 256, 16- and 64-token pages, B 1-64 and both K layouts (dense =
// --transK, kmaj = rocMLIR's default). --list plans without compiling.
// RUN: rock-tune --prepare %t-unused --arch sm_90 --cases offtable --list | FileCheck %s
// CHECK-COUNT-13: {{^}}offtable-{{(dense|kmaj|p16|p64)}}-R{{[0-9]+}}-d{{[0-9]+}}-B{{[0-9]+}}-L{{[0-9]+}}k: {{[0-9]+}} configs ({{[0-9]+}} quick), exhaustive{{$}}
// CHECK-NEXT: {{^}}rock-tune: 13 cases, {{[0-9]+}} bundles to compile; 13 exhaustive shapes: GQA ratios 1,2,4,8,16; head dims 64,128,256; B 1,2,4,8,16,32,64; layouts dense,kmaj,p16,p64{{$}}
// --list writes nothing.
// RUN: not ls %t-unused
