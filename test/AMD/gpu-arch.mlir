// GPU target names (rockGpuTargetParse): rock-gen --arch accepts rocMLIR's AMD
// spellings and records them verbatim as mhal.arch; rock-gpu-attach-target
// turns them into #rocdl.target with the chip and the LLVM features (wave32
// from gfx10 on); malformed names are one-line errors.
// RUN: rock-gen -p --arch gfx942 | FileCheck %s --check-prefix=GFX942
// GFX942: module attributes {mhal.arch = "gfx942",
// RUN: rock-gen -p --arch amdgcn-amd-amdhsa:gfx942:sramecc+:xnack- | FileCheck %s --check-prefix=TRIPLE
// TRIPLE: module attributes {mhal.arch = "amdgcn-amd-amdhsa:gfx942:sramecc+:xnack-",

// RUN: rock-gen -p --arch gfx942 | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu,gpu-kernel-outlining,rock-gpu-attach-target)' | FileCheck %s --check-prefix=T942
// T942: gpu.module @rock_attention_kernel [#rocdl.target<O = 3, chip = "gfx942">]
// RUN: rock-gen -p --arch amdgcn-amd-amdhsa:gfx942:xnack-:sramecc+ | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu,gpu-kernel-outlining,rock-gpu-attach-target)' | FileCheck %s --check-prefix=TFEAT
// TFEAT: gpu.module @rock_attention_kernel [#rocdl.target<O = 3, chip = "gfx942", features = "+sramecc,-xnack">]
// RUN: rock-gen -p --arch gfx90a:xnack+ | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu,gpu-kernel-outlining,rock-gpu-attach-target)' | FileCheck %s --check-prefix=T90A
// T90A: gpu.module @rock_attention_kernel [#rocdl.target<O = 3, chip = "gfx90a", features = "+xnack">]
// RUN: rock-gen -p --arch gfx1201 | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu,gpu-kernel-outlining,rock-gpu-attach-target)' | FileCheck %s --check-prefix=T1201
// T1201: gpu.module @rock_attention_kernel [#rocdl.target<O = 3, chip = "gfx1201", flags = {no_wave64}>]

// Malformed names.
// RUN: not rock-gen -p --arch gfx9 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: rock-gen: error: invalid --arch 'gfx9': expected cpu, sm_<digits>[a] or gfx<id>
// RUN: not rock-gen -p --arch gfx94g 2>&1 | FileCheck %s --check-prefix=HEX
// HEX: rock-gen: error: invalid --arch 'gfx94g': expected cpu, sm_<digits>[a] or gfx<id>
// RUN: not rock-gen -p --arch gfx942:sramecc 2>&1 | FileCheck %s --check-prefix=SIGN
// SIGN: rock-gen: error: invalid --arch 'gfx942:sramecc': a target feature is <name>+ or <name>-
// RUN: not rock-gen -p --arch gfx942:wavefrontsize64+ 2>&1 | FileCheck %s --check-prefix=FEAT
// FEAT: rock-gen: error: invalid --arch 'gfx942:wavefrontsize64+': the target features are sramecc and xnack
// RUN: not rock-gen -p --arch gfx942:xnack+:xnack- 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: rock-gen: error: invalid --arch 'gfx942:xnack+:xnack-': a target feature is given twice
// RUN: not rock-gen -p --arch amdgcn-amd-amdhsa:sm_90 2>&1 | FileCheck %s --check-prefix=TRIPLECHIP
// TRIPLECHIP: rock-gen: error: invalid --arch 'amdgcn-amd-amdhsa:sm_90': expected gfx<id> after amdgcn-amd-amdhsa

// The pipeline checks what it reads: a non-GPU rock.arch, and an AMD target
// without a toolkit (device libraries + ld.lld), are one-line errors.
// RUN: echo 'module attributes {rock.arch = "znver4"} {}' | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=NOTGPU
// NOTGPU: error: rock.arch "znver4" is not a GPU target (sm_<N>, gfx<id>)
// RUN: echo 'module attributes {rock.arch = "gfx9"} {}' | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BADGFX
// BADGFX: error: rock.arch: invalid --arch 'gfx9': expected cpu, sm_<digits>[a] or gfx<id>
// The module attribute rock.rocm_toolkit names another toolkit.
// RUN: rock-gen -p --arch gfx942 --module-attr 'rock.rocm_toolkit="%t.none"' | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=NOTK
// NOTK: error: AMD code objects need a ROCm-layout toolkit with amdgcn/bitcode/ocml.bc and llvm/bin/ld.lld (Debian: rocm-device-libs, lld-22); '{{.*}}.none' has none: set the module attribute rock.rocm_toolkit
