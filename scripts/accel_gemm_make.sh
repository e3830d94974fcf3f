#!/bin/sh
# Writes the PTX of rock-accel-gemm's validation GEMMs (f16, bf16, i8; B as
# [n][k] and as [k][n]; M 64, N 64, K 128 on sm_90) into DIR, for
# scripts/accel_gemm_check.py on a GPU machine. Usage: accel_gemm_make.sh BUILD DIR
set -e
build=$1 dir=$2
mkdir -p "$dir"
pipe='builtin.module(rock-accel-gemm,canonicalize,cse,gpu-launch-sink-index-computations,gpu-kernel-outlining,rock-gpu-attach-target,rock-gpu-to-binary)'
for e in f16 bf16 i8; do
  acc=f32; [ $e = i8 ] && acc=i32
  for l in nk kn; do
    if [ $l = kn ]; then b="128x64x$e"; attr=", rock.accel_b_kn"; else b="64x128x$e"; attr=""; fi
    printf 'module attributes {rock.arch = "sm_90"} {\n  func.func @gemm(%%a: memref<64x128x%s>, %%b: memref<%s>, %%c: memref<64x64x%s>) attributes {rock.accel_gemm%s} {\n    return\n  }\n}\n' \
      $e $b $acc "$attr" | "$build/bin/rock-opt" --pass-pipeline="$pipe" > "$dir/g.mlir"
    python3 "$(dirname "$0")/gpu_objects.py" "$dir/g.mlir" "$dir/o" > /dev/null
    mv "$dir/o/gemm_kernel.ptx" "$dir/gemm_${e}_$l.ptx"
  done
done
rm -rf "$dir/g.mlir" "$dir/o"
