//===- npy.h - NumPy .npy writer ----------------------------------*- C -*-===//
//
// Writes .npy files (format version 1.0, C order, little-endian host).
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_NPY_H
#define ROCK_RUNTIME_NPY_H

#include "buffer.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Writes `buf` (borrowed) to `path` as an array of `shape` (`rank` dims
/// whose product must equal the buffer's element count): f16 as float16, bf16
/// as float32 holding the exact bf16 values, f32/f64 as float32/float64, i8,
/// i32, i64 as int8, int32, int64. Returns false (with errno set by stdio) if
/// the file cannot be written or the shape does not match.
bool rockNpyWriteBuffer(const char *path, const RockBuffer *buf,
                        const int64_t *shape, int rank);

/// Writes `n` doubles from `data` (borrowed) as a float64 array of `shape`.
/// Returns false on I/O error or a shape mismatch.
bool rockNpyWriteF64(const char *path, const double *data, const int64_t *shape,
                     int rank);

#ifdef __cplusplus
}
#endif

#endif
