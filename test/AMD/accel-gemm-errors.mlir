// rock-accel-gemm's rules, each a one-line error.
// RUN: rock-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(rock-accel-gemm)'

module attributes {rock.arch = "gfx942"} {
  // expected-error @+1 {{no tile-product instruction for this element type on gfx942}}
  func.func @gemm(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
module attributes {rock.arch = "gfx1100"} {
  // expected-error @+1 {{no tile-product instruction for this element type on gfx1100}}
  func.func @gemm(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
module attributes {rock.arch = "sm_90"} {
  // expected-error @+1 {{rock.accel_gemm shapes must agree, be multiples of the 16x8x16 instruction, with at most 16 n-tiles and 1024 threads}}
  func.func @gemm(%a: memref<16x24xf16>, %b: memref<8x24xf16>, %c: memref<16x8xf32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
module attributes {rock.arch = "sm_90"} {
  // expected-error @+1 {{rock.accel_gemm shapes must agree, be multiples of the 16x8x16 instruction, with at most 16 n-tiles and 1024 threads}}
  func.func @gemm(%a: memref<16x16xf16>, %b: memref<8x16xf16>, %c: memref<16x16xf32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
module attributes {rock.arch = "sm_90"} {
  // expected-error @+1 {{rock.accel_gemm needs arguments A, B, C}}
  func.func @gemm(%a: memref<16x16xf16>, %b: memref<8x16xf16>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
module attributes {rock.arch = "sm_90"} {
  // expected-error @+1 {{rock.accel_gemm arguments are static 2-D memrefs}}
  func.func @gemm(%a: memref<256xf16>, %b: memref<8x16xf16>, %c: memref<16x8xf32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
// expected-error @+1 {{rock-gpu-pipeline needs the module attribute mhal.arch (or rock.arch; e.g. rock-gen --arch sm_90)}}
module {
  func.func @gemm(%a: memref<16x16xf16>, %b: memref<8x16xf16>, %c: memref<16x8xf32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
// expected-error @+1 {{rock.arch "cpu" is not a GPU target (sm_<N>, gfx<id>)}}
module attributes {rock.arch = "cpu"} {
  func.func @gemm(%a: memref<16x16xf16>, %b: memref<8x16xf16>, %c: memref<16x8xf32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
module attributes {rock.arch = "sm_90a"} {
  // expected-error @+1 {{rock.accel_tile is array<i64: BM, BN> with BM dividing M and BN dividing N}}
  func.func @gemm(%a: memref<128x64xbf16>, %b: memref<128x64xbf16>, %c: memref<128x128xf32>) attributes {rock.accel_gemm, rock.accel_tile = array<i64: 96, 64>} {
    return
  }
}

// -----
// sm_90a: the wgmma instruction is m64 x n x k16; M = 32 is not a multiple.
module attributes {rock.arch = "sm_90a"} {
  // expected-error @+1 {{rock.accel_gemm shapes must agree, be multiples of the 64x64x16 instruction, with at most 16 n-tiles and 1024 threads}}
  func.func @gemm(%a: memref<32x64xbf16>, %b: memref<64x64xbf16>, %c: memref<32x64xf32>) attributes {rock.accel_gemm} {
    return
  }
}
