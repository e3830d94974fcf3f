// Split-KV memory guard (docs/semantics.md §5.7).
//
// Worked example (rocMLIR's verifier test): Q 1x1024x64 f16, splitKV = 2:
// (2-1) * (1*1024*64*2 + 1*1024*4) = 135168 bytes. The large problem below
// (B = 1, Sq = 65536, Dv = 128, f16, splitKV = 128) needs
// 127 * (65536*128*2 + 65536*4) = 2163998720 bytes.

// A tiny override trips the worked example, under either variable name.
// RUN: env ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=100 not rock-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=TINY
// RUN: env ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=100 not rock-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=TINY
// ROCK_ wins over ROCMLIR_; a value that is not a positive decimal integer is
// ignored (the next source applies).
// RUN: env ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=100 ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=1000000000000 not rock-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=TINY
// RUN: env ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=abc ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=100 not rock-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=TINY
// TINY: error: splitKV requires 135168 bytes of extra output/LSE storage, which exceeds the limit (100 bytes). Lower splitKV or reduce sequence sizes. Override this guard with ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES. (rock also reads ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES, which wins.)

// The limit is inclusive: exactly 135168 passes, 135167 trips.
// RUN: env ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=135167 not rock-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXACT
// EXACT: error: splitKV requires 135168 bytes of extra output/LSE storage, which exceeds the limit (135167 bytes).
// RUN: env ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=135168 not rock-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXACT-OK --implicit-check-not="error:"
// EXACT-OK-COUNT-4: error: splitKV requires 2163998720 bytes {{.*}} (135168 bytes)

// A large override lets everything pass, under either name.
// RUN: env ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=1000000000000 rock-opt %s -split-input-file | FileCheck %s --check-prefix=LARGE
// RUN: env ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=1000000000000 rock-opt %s -split-input-file | FileCheck %s --check-prefix=LARGE
// LARGE-LABEL: func @worked_example
// LARGE-LABEL: func @device_mem_4gib
// LARGE-LABEL: func @device_mem_16gib
// LARGE-LABEL: func @device_mem_128gib
// LARGE-LABEL: func @no_device_mem

// Without a usable override: rock.device_mem_bytes gives clamp(mem/8, 1 GiB,
// 8 GiB), no device gives 1.5 GiB; the worked example passes.
// RUN: not rock-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not="error:"
// RUN: env ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=-5 ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=0 not rock-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not="error:"
// RUN: env ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=12abc ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES=" 7" not rock-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not="error:"
// DEFAULT: error: splitKV requires 2163998720 bytes of extra output/LSE storage, which exceeds the limit (1073741824 bytes). Lower splitKV or reduce sequence sizes. Override this guard with ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES. (rock also reads ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES, which wins.)
// DEFAULT: error: splitKV requires 2163998720 bytes of extra output/LSE storage, which exceeds the limit (2147483648 bytes).
// DEFAULT: error: splitKV requires 2163998720 bytes of extra output/LSE storage, which exceeds the limit (1610612736 bytes).

func.func @worked_example(%q: memref<1x1024x64xf16>, %k: memref<1x64x1024xf16>,
    %v: memref<1x1024x64xf16>, %out: memref<2x1024x64xf16>,
    %lse: memref<2x1024xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x1024x64xf16>, memref<1x64x1024xf16>
    lse = %lse : memref<2x1024xf32>
    %out = softmax(qk) * %v : memref<1x1024x64xf16> -> memref<2x1024x64xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 2 : i32}
  return
}

// -----

// 4 GiB / 8 = 512 MiB, clamped up to 1 GiB.
module attributes {rock.device_mem_bytes = 4294967296 : i64} {
  func.func @device_mem_4gib(%q: memref<1x65536x128xf16>, %k: memref<1x128x16xf16>,
      %v: memref<1x16x128xf16>, %out: memref<128x65536x128xf16>,
      %lse: memref<128x65536xf32>) {
    rock.attention {
      qk = %q * %k : memref<1x65536x128xf16>, memref<1x128x16xf16>
      lse = %lse : memref<128x65536xf32>
      %out = softmax(qk) * %v : memref<1x16x128xf16> -> memref<128x65536x128xf16>
    } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 128 : i32}
    return
  }
}

// -----

// 16 GiB / 8 = 2 GiB: just below the 2163998720 bytes needed.
module attributes {rock.device_mem_bytes = 17179869184 : i64} {
  func.func @device_mem_16gib(%q: memref<1x65536x128xf16>, %k: memref<1x128x16xf16>,
      %v: memref<1x16x128xf16>, %out: memref<128x65536x128xf16>,
      %lse: memref<128x65536xf32>) {
    rock.attention {
      qk = %q * %k : memref<1x65536x128xf16>, memref<1x128x16xf16>
      lse = %lse : memref<128x65536xf32>
      %out = softmax(qk) * %v : memref<1x16x128xf16> -> memref<128x65536x128xf16>
    } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 128 : i32}
    return
  }
}

// -----

// 128 GiB / 8 = 16 GiB, clamped down to 8 GiB: passes.
module attributes {rock.device_mem_bytes = 137438953472 : i64} {
  func.func @device_mem_128gib(%q: memref<1x65536x128xf16>, %k: memref<1x128x16xf16>,
      %v: memref<1x16x128xf16>, %out: memref<128x65536x128xf16>,
      %lse: memref<128x65536xf32>) {
    rock.attention {
      qk = %q * %k : memref<1x65536x128xf16>, memref<1x128x16xf16>
      lse = %lse : memref<128x65536xf32>
      %out = softmax(qk) * %v : memref<1x16x128xf16> -> memref<128x65536x128xf16>
    } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 128 : i32}
    return
  }
}

// -----

// No device memory size: 1.5 GiB.
func.func @no_device_mem(%q: memref<1x65536x128xf16>, %k: memref<1x128x16xf16>,
    %v: memref<1x16x128xf16>, %out: memref<128x65536x128xf16>,
    %lse: memref<128x65536xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x65536x128xf16>, memref<1x128x16xf16>
    lse = %lse : memref<128x65536xf32>
    %out = softmax(qk) * %v : memref<1x16x128xf16> -> memref<128x65536x128xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 128 : i32}
  return
}
