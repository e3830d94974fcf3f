// RUN: rock-opt %s -split-input-file -verify-diagnostics

// rocMLIR's linalg form of the pre-softmax region (support/region_form.h,
// docs/dialect.md): one case per rule. Base problem: B = 1, Sq = 4, Dqk = 8,
// Sk = 16, Dv = 8, f16, one elementwise input (a scale [1, 4, 16]).

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// Terminator: rock.yield without operands.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody in the linalg form must end in rock.yield without operands}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      %z = arith.constant 0.0 : f16
      rock.yield %z : f16
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// Only alloc, one generic and one copy.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody in the linalg form takes memref.alloc, one linalg.generic and one memref.copy (got arith.constant)}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      %c = arith.constant 2.0 : f16
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// Two generics.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody in the linalg form takes memref.alloc, one linalg.generic and one memref.copy (got linalg.generic)}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// No generic.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody in the linalg form needs a linalg.generic}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      %t = memref.alloc() : memref<1x4x16xf16>
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// One output.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody linalg.generic must have one output}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      %t = memref.alloc() : memref<1x4x16xf16>
      linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res, %t : memref<1x4x16xf16>, memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16, %o2: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m, %m : f16, f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// Inputs are block arguments other than the output.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody linalg.generic input 1 must be one of the region's first 2 arguments (the score and the elementwise inputs)}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %res : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// The output is the last argument or an alloc copied into it.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody linalg.generic must write the region's last argument, directly or through a memref.alloc copied into it}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      %t = memref.alloc() : memref<1x4x16xf16>
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%t : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// Identity maps.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody linalg.generic indexing map 1 must be the identity (rock reads element (b, i, j) of every input)}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// Parallel iterators.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody linalg.generic iterator 2 must be parallel}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "reduction"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// The body takes one value per input and the output element.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody linalg.generic body must take one value per input and the output element}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// The body does not read the output element.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody linalg.generic must not read its output element (the score is computed from the inputs)}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %o : f16
        linalg.yield %m : f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// A float score.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody must yield a float value (got i16)}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xi16>):
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%res : memref<1x4x16xi16>) {
      ^bb0(%a: f16, %b: f16, %o: i16):
        %m = arith.fptosi %a : f16 to i16
        linalg.yield %m : i16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// Input element types.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody argument 1 type (f32) must equal the element type of elementwise input 0 (f16)}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf32>, %res: memref<1x4x16xf16>):
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf32>) outs(%res : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f32, %o: f16):
        %bb = arith.truncf %b : f32 to f16
        %m = arith.mulf %a, %bb : f16
        linalg.yield %m : f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// Input shapes.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody argument 1 (memref<1x4x8xf16>) must have the shape of elementwise input 0 (memref<1x4x16xf16>)}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x8xf16>, %sc: memref<1x4x8xf16>, %res: memref<1x4x8xf16>):
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x8xf16>, memref<1x4x8xf16>) outs(%res : memref<1x4x8xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// Output shape.
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody output argument (memref<1x4x8xf16>) must have the shape of the score argument (memref<1x4x16xf16>)}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x8xf16>):
      %t = memref.alloc() : memref<1x4x16xf16>
      linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sc : memref<1x4x16xf16>, memref<1x4x16xf16>) outs(%t : memref<1x4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }
      memref.copy %t, %res : memref<1x4x16xf16> to memref<1x4x8xf16>
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// The generic's maps are present (the generic syntax can omit them).
func.func @f(%q: memref<1x4x8xf16>, %k: memref<1x8x16xf16>, %v: memref<1x16x8xf16>, %s: memref<1x4x16xf16>, %out: memref<1x4x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody linalg.generic lacks its maps}}
  rock.attention {
    qk = %q * %k : memref<1x4x8xf16>, memref<1x8x16xf16>
    qk = elementwise otherIns(%s : memref<1x4x16xf16>) {
    ^bb0(%qk: memref<1x4x16xf16>, %sc: memref<1x4x16xf16>, %res: memref<1x4x16xf16>):
      "linalg.generic"(%qk, %sc, %res) <{operandSegmentSizes = array<i32: 2, 1>}> ({
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      }) : (memref<1x4x16xf16>, memref<1x4x16xf16>, memref<1x4x16xf16>) -> ()
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x16x8xf16> -> memref<1x4x8xf16>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}
