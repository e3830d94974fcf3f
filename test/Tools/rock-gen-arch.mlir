// rock-gen --arch records a GPU target as rocmlir-gen does: mhal.arch on the
// module (read by rock-gpu-pipeline, which still reads rock.arch too) and
// `{mhal.arch = ..., rock.kernel}` on @rock_attention; cpu or no --arch
// records none, keeps the CPU path and the C interface the JIT calls.
// RUN: rock-gen -p --arch sm_90 | FileCheck %s --check-prefix=SM90
// SM90: module attributes {mhal.arch = "sm_90", rock.harness = {arch = "sm_90"
// SM90: func.func @rock_attention({{.*}}) attributes {mhal.arch = "sm_90", rock.kernel} {
// RUN: rock-gen -p --arch sm_90a | FileCheck %s --check-prefix=SM90A
// SM90A: module attributes {mhal.arch = "sm_90a",
// RUN: rock-gen -p --arch gfx942 | FileCheck %s --check-prefix=GFX
// GFX: module attributes {mhal.arch = "gfx942",
// RUN: rock-gen -p --arch cpu | FileCheck %s --check-prefix=CPU
// RUN: rock-gen -p | FileCheck %s --check-prefix=CPU
// CPU-NOT: mhal.arch
// CPU-NOT: rock.arch
// CPU: func.func @rock_attention({{.*}}) attributes {llvm.emit_c_interface} {
// CPU-NOT: mhal.arch
