// rock-gen --arch records a GPU target in the module as rock.arch (read by
// rock-gpu-pipeline); cpu or no --arch records none and keeps the CPU path.
// RUN: rock-gen -p --arch sm_90 | FileCheck %s --check-prefix=SM90
// SM90: module attributes {rock.arch = "sm_90", rock.harness = {arch = "sm_90"
// RUN: rock-gen -p --arch sm_90a | FileCheck %s --check-prefix=SM90A
// SM90A: module attributes {rock.arch = "sm_90a",
// RUN: rock-gen -p --arch gfx942 | FileCheck %s --check-prefix=GFX
// GFX: module attributes {rock.arch = "gfx942",
// RUN: rock-gen -p --arch cpu | FileCheck %s --check-prefix=CPU
// RUN: rock-gen -p | FileCheck %s --check-prefix=CPU
// CPU-NOT: rock.arch
