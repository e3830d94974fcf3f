// Follows rocMLIR's mlir/test/Dialect/Rock/attention_splitkv_limit_verifier.mlir
// and attention_splitkv_limit_override.mlir: the split-KV memory guard reads
// rocMLIR's ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES, reports in rocMLIR's
// words and names rock's own variable after them, which wins when both are
// set. 2 splits of [1024 x 64] f16 partial outputs and [1024] f32 LSEs need
// 2 * 1024 * (64 * 2 + 4) = 270336 bytes, of which the guard counts the
// extra split's 135168.
// RUN: env -u ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=1024 rock-opt -verify-diagnostics %s
// RUN: env -u ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=1048576 rock-opt %s | FileCheck %s --check-prefix=OK
// RUN: env ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=1024 ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=1048576 rock-opt %s | FileCheck %s --check-prefix=OK
// OK: rock.attention

func.func @splitkv_guard(%q: memref<1x32x1024xf16>, %k: memref<1x32x1024xf16>, %v: memref<1x1024x64xf16>, %l: memref<2x1024xf32>, %o: memref<2x1024x64xf16>) attributes {rock.kernel, mhal.arch = "gfx1100"} {
  // expected-error @+1 {{splitKV requires 135168 bytes of extra output/LSE storage, which exceeds the limit (1024 bytes). Lower splitKV or reduce sequence sizes. Override this guard with ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES. (rock also reads ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES, which wins.)}}
  rock.attention {
    qk = tr %q * %k : memref<1x32x1024xf16>, memref<1x32x1024xf16>
    lse = %l : memref<2x1024xf32>
    %o = softmax(qk) * %v : memref<1x1024x64xf16> -> memref<2x1024x64xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 2 : i32}
  return
}
