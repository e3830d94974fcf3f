// The internal split's second launch as a programmatic dependent launch
// (rock.gpu_pdl, docs/gpu.md "Programmatic dependent launch"): bf16 GQA 4
// decode B 8 L 8k splits into partials merged by a second launch. With the
// switch on sm_90 the split kernel executes griddepcontrol.launch_dependents
// first, the combine kernel griddepcontrol.wait before any load;
// rock-gpu-mark-dependents marks the combine's gpu.launch_func rock.pdl, the
// bundle's launch line ends in `pdl`, and the runners launch it by
// cuLaunchKernelEx with programmatic stream serialization (id 6, value 1).
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --verifier=none --module-attr rock.gpu_pdl=true --module-attr rock.gpu_accel_key_warps=1 > %t/on.mlir
// RUN: rock-opt %t/on.mlir --rock-gpu-pipeline > %t/on.gpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/on.gpu.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/on.gpu.mlir %t/on
// RUN: FileCheck %s --check-prefix=SPLIT < %t/on/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=COMBINE < %t/on/rock_attention_kernel_0.ptx

// IR: gpu.launch_func @rock_attention_kernel::@rock_attention_kernel blocks in (%c512
// IR-NOT: rock.pdl
// IR-SAME: {{$}}
// IR-NEXT: gpu.launch_func @rock_attention_kernel_0::@rock_attention_kernel blocks in (%c256{{.*}} {rock.pdl}
// SPLIT: .version 7.8
// SPLIT: .target sm_90
// SPLIT: .entry rock_attention_kernel(
// SPLIT-NOT: ld.global
// SPLIT: griddepcontrol.launch_dependents;
// SPLIT-NOT: griddepcontrol
// COMBINE: .entry rock_attention_kernel(
// COMBINE-NOT: ld.global
// COMBINE: griddepcontrol.wait;
// COMBINE: ld.global
// COMBINE-NOT: griddepcontrol

// The bundle: only the combine's launch is a programmatic dependent; the
// runner's --check and the benchmark's reader say so.
// RUN: rock-run --compile-only -o %t/on.bundle < %t/on.mlir
// RUN: grep -a '^launch' %t/on.bundle | FileCheck %s --check-prefix=BUNDLE
// RUN: rock-run-gpu --check %t/on.bundle | FileCheck %s --check-prefix=RCHECK
// RUN: python3 -c "import sys; sys.path.insert(0, '%rock_src/bench/gpu'); import attention_bench as a; print([la['pdl'] for la in a.read_bundle('%t/on.bundle')['funcs']['rock_attention']['launches']])" | FileCheck %s --check-prefix=PYB
// BUNDLE: launch 0 rock_attention_kernel grid 512 1 1 block 32 1 1 smem 0{{$}}
// BUNDLE-NEXT: launch 1 rock_attention_kernel grid 256 1 1 block 128 1 1 smem 0 pdl{{$}}
// RCHECK: rock_attention launch 0: rock_attention_kernel (rock_attention_kernel ptx) grid 512 1 1 block 32 1 1 smem 0: K,
// RCHECK: rock_attention launch 1: rock_attention_kernel (rock_attention_kernel_0 ptx) grid 256 1 1 block 128 1 1 smem 0, programmatic dependent: scratch 1
// PYB: [False, True]

// The runner against the CUDA driver stand-in (test/Runtime/Inputs/
// fake_cuda.c): the split by cuLaunchKernel, the combine by
// cuLaunchKernelEx with the attribute; a driver without cuLaunchKernelEx,
// or one that refuses the attribute, gets a plain launch and a note, once.
// RUN: sh -c 'ROCK_CUDA_LIBRARY=%rock_obj_root/test/librock-fake-cuda%shlibext ROCK_FAKE_CUDA_LOG=%t/ex.log rock-run-gpu %t/on.bundle --time 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=EXOUT
// RUN: grep -v '^alloc' %t/ex.log | FileCheck %s --check-prefix=EX
// RUN: sh -c 'ROCK_CUDA_LIBRARY=%rock_obj_root/test/librock-fake-cuda-noex%shlibext ROCK_FAKE_CUDA_LOG=%t/noex.log rock-run-gpu %t/on.bundle --time 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=NOEX
// RUN: grep -v '^alloc' %t/noex.log | FileCheck %s --check-prefix=PLAIN
// RUN: sh -c 'ROCK_FAKE_CUDA_EX_FAIL=1 ROCK_CUDA_LIBRARY=%rock_obj_root/test/librock-fake-cuda%shlibext ROCK_FAKE_CUDA_LOG=%t/fail.log rock-run-gpu %t/on.bundle --time 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=FAIL
// RUN: grep -v '^alloc' %t/fail.log | FileCheck %s --check-prefix=FAILLOG
// EXOUT-NOT: note:
// EXOUT: exit 0
// EX: {{^}}launch [[K:0x[0-9a-f]+]] [[V:0x[0-9a-f]+]] [[Q:0x[0-9a-f]+]]
// EX-NEXT: {{^}}launchex grid 256 1 1 block 128 1 1 smem 0 attrs 1 id 6 value 1{{$}}
// EX-NEXT: {{^}}launch [[S1:0x[0-9a-f]+]]
// EX-NEXT: {{^}}launch [[K]] [[V]] [[Q]]
// EX-NEXT: {{^}}launchex grid 256 1 1 block 128 1 1 smem 0 attrs 1 id 6 value 1{{$}}
// NOEX: rock-run-gpu: note: the CUDA driver has no cuLaunchKernelEx; programmatic dependent launches run as plain launches
// NOEX-NOT: note:
// NOEX: exit 0
// PLAIN-NOT: launchex
// PLAIN: {{^}}launch
// PLAIN-NEXT: {{^}}launch
// PLAIN-NOT: launchex
// FAIL: rock-run-gpu: note: cuLaunchKernelEx with programmatic stream serialization failed (FAKE_ERROR); programmatic dependent launches run as plain launches
// FAIL-NOT: note:
// FAIL: exit 0
// FAILLOG: {{^}}launch
// FAILLOG-NEXT: {{^}}launchex grid 256 1 1 block 128 1 1 smem 0 attrs 1 id 6 value 1{{$}}
// FAILLOG-NEXT: {{^}}launch
// FAILLOG-NEXT: {{^}}launch
// FAILLOG-NEXT: {{^}}launch
// FAILLOG-NOT: launchex

// The benchmark's launch (bench/gpu/attention_bench.py, ctypes on the
// driver's cuLaunchKernelEx) against the stand-in: the config's geometry,
// the attribute and the parameters in order.
// RUN: env ROCK_FAKE_CUDA_LOG=%t/py.log python3 -c "import sys, ctypes; sys.path.insert(0, '%rock_src/bench/gpu'); import attention_bench as a; a._cuda = ctypes.CDLL('%rock_obj_root/test/librock-fake-cuda%shlibext'); k = type('RawKernel', (), {'kernel': type('Function', (), {'ptr': 1})()})(); a.launch_pdl(k, {'kernel': 'k', 'grid': (3, 2, 1), 'block': (128, 1, 1), 'smem': 4096, 'params': [('arg', 0), ('scratch', 0), ('i64', 0)]}, [0x1234, 0x5678, 0x9abc], 0)"
// RUN: FileCheck %s --check-prefix=PY < %t/py.log
// PY: {{^}}launchex grid 3 2 1 block 128 1 1 smem 4096 attrs 1 id 6 value 1{{$}}
// PY-NEXT: {{^}}launch 0x1234 0x5678 0x9abc{{$}}

// Without the switch the default is on (sm_90 and later): the same IR as
// with it. Not with it false, not below sm_90, not on AMD, and not where
// the merge is fused into the one kernel (B 1: 64 partitions, 4 merged
// rows; nothing launches second).
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --verifier=none --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --rock-gpu-pipeline | FileCheck %s --check-prefix=IR
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --verifier=none --module-attr rock.gpu_pdl=false \
// RUN:   | rock-opt --rock-gpu-pipeline | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_80 -pv --verifier=none --module-attr rock.gpu_pdl=true \
// RUN:   | rock-opt --rock-gpu-pipeline | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch gfx942 -pv --verifier=none --module-attr rock.gpu_pdl=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --verifier=none --module-attr rock.gpu_pdl=true \
// RUN:   | rock-opt --rock-gpu-pipeline | FileCheck %s --check-prefix=FUSED
// OFF: gpu.launch
// OFF-NOT: griddepcontrol
// OFF-NOT: rock.pdl
// FUSED: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// FUSED-NOT: griddepcontrol
// FUSED-NOT: rock.pdl
