#!/bin/sh
# Writes the PTX of rock-accel-gemm's validation GEMMs into DIR, with a
# manifest DIR/gemms.txt (one line per kernel: file arch elt layout M N K BM
# BN threads mode) for scripts/accel_gemm_check.py on a GPU machine.
#   sm_90 (mma.sync):  f16, bf16, i8; B as [n][k] (nk) and [k][n] (kn);
#                      M 64, N 64, K 128.
#   sm_90a (wgmma for f16 / bf16, mma.sync for i8): the same six, plus bf16
#                      M 128 N 256 K 128 kn (two warpgroups, two n = 128
#                      tiles), bf16 256 x 256 x 512 in 128 x 128 blocks (a 2 x 2
#                      grid), all checked; with --time also bf16 4096^3 in
#                      128 x 128 blocks, checked and timed.
# Usage: accel_gemm_make.sh BUILD DIR [--time]
set -e
build=$1 dir=$2 timed=$3
mkdir -p "$dir"
: > "$dir/gemms.txt"
pipe='builtin.module(rock-accel-gemm,canonicalize,cse,gpu-launch-sink-index-computations,gpu-kernel-outlining,rock-gpu-attach-target,rock-gpu-to-binary)'
# one ARCH ELT LAYOUT M N K BM BN MODE
one() {
  arch=$1 e=$2 l=$3 M=$4 N=$5 K=$6 bm=$7 bn=$8 mode=$9
  acc=f32; [ $e = i8 ] && acc=i32
  if [ $l = kn ]; then b="${K}x${N}x$e"; attr=", rock.accel_b_kn"; else b="${N}x${K}x$e"; attr=""; fi
  [ $bm = $M ] && [ $bn = $N ] || attr="$attr, rock.accel_tile = array<i64: $bm, $bn>"
  # Rows per warp (mma.sync) or per warpgroup (wgmma) and its lanes.
  rows=16 lanes=32
  [ $arch = sm_90a ] && [ $e != i8 ] && rows=64 lanes=128
  name="gemm_${arch}_${e}_${l}_${M}x${N}x${K}"
  printf 'module attributes {rock.arch = "%s"} {\n  func.func @gemm(%%a: memref<%sx%sx%s>, %%b: memref<%s>, %%c: memref<%sx%sx%s>) attributes {rock.accel_gemm%s} {\n    return\n  }\n}\n' \
    $arch $M $K $e $b $M $N $acc "$attr" | "$build/bin/rock-opt" --pass-pipeline="$pipe" > "$dir/g.mlir"
  python3 "$(dirname "$0")/gpu_objects.py" "$dir/g.mlir" "$dir/o" > /dev/null
  mv "$dir/o/gemm_kernel.ptx" "$dir/$name.ptx"
  echo "$name.ptx $arch $e $l $M $N $K $bm $bn $((bm / rows * lanes)) $mode" >> "$dir/gemms.txt"
}
for arch in sm_90 sm_90a; do
  for e in f16 bf16 i8; do
    for l in nk kn; do
      one $arch $e $l 64 64 128 64 64 check
    done
  done
done
one sm_90a bf16 kn 128 256 128 128 256 check
one sm_90a bf16 nk 256 256 512 128 128 check
[ "$timed" = --time ] && one sm_90a bf16 nk 4096 4096 4096 128 128 time
rm -rf "$dir/g.mlir" "$dir/o"
