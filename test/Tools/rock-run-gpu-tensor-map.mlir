// The runner's tensor maps (runtime/gpu_run.c, docs/gpu-runner.md) against
// a CUDA driver stand-in (test/Runtime/Inputs/fake_cuda.c, through
// ROCK_CUDA_LIBRARY; its kernels do nothing, so the verdict fails): each
// tensor_map line of a bundle is encoded with cuTensorMapEncodeTiled over
// its argument's device copy (bf16 = 9, 128-byte swizzle = 3, L2 promotion
// 256 B = 3, zeros out of bounds, unit element strides, a 64-byte aligned
// map), copied into a 192-byte device buffer (the map, then at byte 128 the
// address of a pool map's pool), and that buffer is the
// kernel's parameter; with --time once more for every rotating input copy,
// before timing.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 500 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 -pv --module-attr rock.gpu_wgmma_tma=true \
// RUN:   | rock-run --compile-only -o %t.bundle
// RUN: sh -c 'ROCK_CUDA_LIBRARY=%rock_obj_root/test/librock-fake-cuda%shlibext ROCK_FAKE_CUDA_LOG=%t.log rock-run-gpu %t.bundle --time; echo "exit $?"' | FileCheck %s --check-prefix=TIMED
// RUN: FileCheck %s < %t.log

// TIMED: gpu timing: {{.*}} 3 rotating input copies
// TIMED: exit 1

// Q (1 MiB), K and V (250 KB each): the maps of K and V, in that order.
// CHECK: alloc [[Q:0x[0-9a-f]+]] 1048576
// CHECK-NEXT: alloc [[K:0x[0-9a-f]+]] 256000
// CHECK-NEXT: alloc [[V:0x[0-9a-f]+]] 256000
// CHECK: alloc [[MK:0x[0-9a-f]+]] 192
// CHECK-NEXT: encode dtype 9 rank 3 base [[K]] aligned 1 dims 128 500 2 strides 256 128000 box 64 128 1 estrides 1 1 1 interleave 0 swizzle 3 l2 3 oob 0
// CHECK-NEXT: htod [[MK]] map of [[K]]
// CHECK-NEXT: alloc [[MV:0x[0-9a-f]+]] 192
// CHECK-NEXT: encode dtype 9 rank 3 base [[V]] aligned 1 dims 128 500 2 strides 256 128000 box 64 128 1 estrides 1 1 1 interleave 0 swizzle 3 l2 3 oob 0
// CHECK-NEXT: htod [[MV]] map of [[V]]
// CHECK-NEXT: launch [[Q]] [[MK]] [[MV]]
// The timing copies (Q, K, V, twice; K's and V's maps each), then every
// launch takes a copy's maps; none is encoded while timing.
// CHECK: alloc [[K2:0x[0-9a-f]+]] 256000
// CHECK-NEXT: alloc [[V2:0x[0-9a-f]+]] 256000
// CHECK: alloc [[K3:0x[0-9a-f]+]] 256000
// CHECK-NEXT: alloc [[V3:0x[0-9a-f]+]] 256000
// CHECK-NEXT: alloc [[MK2:0x[0-9a-f]+]] 192
// CHECK-NEXT: encode {{.*}} base [[K2]] {{.*}}
// CHECK-NEXT: htod [[MK2]] map of [[K2]]
// CHECK-NEXT: alloc [[MV2:0x[0-9a-f]+]] 192
// CHECK-NEXT: encode {{.*}} base [[V2]] {{.*}}
// CHECK-NEXT: htod [[MV2]] map of [[V2]]
// CHECK-NEXT: alloc [[MK3:0x[0-9a-f]+]] 192
// CHECK-NEXT: encode {{.*}} base [[K3]] {{.*}}
// CHECK-NEXT: htod [[MK3]] map of [[K3]]
// CHECK-NEXT: alloc [[MV3:0x[0-9a-f]+]] 192
// CHECK-NEXT: encode {{.*}} base [[V3]] {{.*}}
// CHECK-NEXT: htod [[MV3]] map of [[V3]]
// CHECK-NOT: encode
// CHECK: launch {{0x[0-9a-f]+}} [[MK2]] [[MV2]]
// CHECK-NOT: encode
// CHECK: launch {{0x[0-9a-f]+}} [[MK3]] [[MV3]]
// CHECK-NOT: encode

// A pool map (rock.gpu_wgmma_tma_paged, bundle keyword `pool`): encoded over
// the device pool of its page table, not the table, and the pool's address
// written after the map (byte 128); for every timing copy over that copy's
// pool.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --paged-attention --num-pages 64 --page-size 2048 --arch sm_90 -pv --module-attr rock.gpu_wgmma_tma_paged=true \
// RUN:   | rock-run --compile-only -o %t.paged.bundle
// RUN: sh -c 'ROCK_CUDA_LIBRARY=%rock_obj_root/test/librock-fake-cuda%shlibext ROCK_FAKE_CUDA_LOG=%t.paged.log rock-run-gpu %t.paged.bundle --time; echo "exit $?"' | FileCheck %s --check-prefix=PTIMED
// RUN: FileCheck %s --check-prefix=PAGED < %t.paged.log

// PTIMED: gpu timing: {{.*}} 4 rotating input copies
// PTIMED: exit 1

// Each table (64 entries) is followed by its pool (64 pages of 4 KiB).
// PAGED: alloc [[KT:0x[0-9a-f]+]] 512
// PAGED-NEXT: alloc [[KP:0x[0-9a-f]+]] 262144
// PAGED-NEXT: alloc [[VT:0x[0-9a-f]+]] 512
// PAGED-NEXT: alloc [[VP:0x[0-9a-f]+]] 262144
// PAGED: alloc [[MK:0x[0-9a-f]+]] 192
// PAGED-NEXT: encode dtype 9 rank 3 base [[KP]] aligned 1 dims 128 1024 1 strides 256 262144 box 64 16 1 estrides 1 1 1 interleave 0 swizzle 3 l2 3 oob 0
// PAGED-NEXT: htod [[MK]] map of [[KP]] then [[KP]]
// PAGED-NEXT: alloc [[MV:0x[0-9a-f]+]] 192
// PAGED-NEXT: encode dtype 9 rank 3 base [[VP]] {{.*}}
// PAGED-NEXT: htod [[MV]] map of [[VP]] then [[VP]]
// PAGED-NEXT: launch {{0x[0-9a-f]+}} [[MK]] [[MV]]{{$}}
// A timing copy: Q, then each pool copy with its table.
// PAGED: alloc {{0x[0-9a-f]+}} 524288
// PAGED-NEXT: alloc [[KP2:0x[0-9a-f]+]] 262144
// PAGED-NEXT: alloc [[KT2:0x[0-9a-f]+]] 512
// PAGED-NEXT: alloc [[VP2:0x[0-9a-f]+]] 262144
// PAGED-NEXT: alloc [[VT2:0x[0-9a-f]+]] 512
// PAGED: alloc [[MK2:0x[0-9a-f]+]] 192
// PAGED-NEXT: encode {{.*}} base [[KP2]] {{.*}}
// PAGED-NEXT: htod [[MK2]] map of [[KP2]] then [[KP2]]
// PAGED-NEXT: alloc [[MV2:0x[0-9a-f]+]] 192
// PAGED-NEXT: encode {{.*}} base [[VP2]] {{.*}}
// PAGED-NEXT: htod [[MV2]] map of [[VP2]] then [[VP2]]
// PAGED-NOT: encode {{.*}} base [[KT2]]
// PAGED: launch {{0x[0-9a-f]+}} [[MK2]] [[MV2]]{{$}}
