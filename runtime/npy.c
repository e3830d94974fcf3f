//===- npy.c - NumPy .npy writer -----------------------------------------===//
#include "npy.h"

#include <stdio.h>
#include <string.h>

static bool writeNpy(const char *path, const char *descr, const void *data,
                     size_t elemBytes, int64_t count, const int64_t *shape,
                     int rank, bool bf16) {
  int64_t prod = 1;
  for (int d = 0; d < rank; ++d)
    prod *= shape[d];
  if (prod != count)
    return false;
  char header[1024];
  int len =
      snprintf(header, sizeof header,
               "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int d = 0; d < rank && len < 900; ++d)
    len += snprintf(header + len, sizeof header - (size_t)len, "%lld%s",
                    (long long)shape[d],
                    rank == 1 ? "," : (d + 1 < rank ? ", " : ""));
  len += snprintf(header + len, sizeof header - (size_t)len, "), }");
  // magic (6) + version (2) + length (2) + header, padded to 64 with spaces
  // and ended by a newline.
  int total = 10 + len + 1;
  int pad = (64 - total % 64) % 64;
  memset(header + len, ' ', (size_t)pad);
  len += pad;
  header[len++] = '\n';
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  unsigned char pre[10] = {0x93,
                           'N',
                           'U',
                           'M',
                           'P',
                           'Y',
                           1,
                           0,
                           (unsigned char)(len & 0xff),
                           (unsigned char)(len >> 8)};
  bool ok = fwrite(pre, 1, 10, f) == 10 &&
            fwrite(header, 1, (size_t)len, f) == (size_t)len;
  if (ok && bf16) {
    const uint16_t *h = data;
    for (int64_t k = 0; k < count && ok; ++k) {
      float v = rockBF16ToF32(h[k]);
      ok = fwrite(&v, sizeof v, 1, f) == 1;
    }
  } else if (ok && count > 0) {
    ok = fwrite(data, elemBytes, (size_t)count, f) == (size_t)count;
  }
  return fclose(f) == 0 && ok;
}

bool rockNpyWriteBuffer(const char *path, const RockBuffer *buf,
                        const int64_t *shape, int rank) {
  const char *descr = "<f4";
  bool bf16 = false;
  switch (buf->dtype) {
  case ROCK_DTYPE_F32:
    descr = "<f4";
    break;
  case ROCK_DTYPE_F16:
    descr = "<f2";
    break;
  case ROCK_DTYPE_BF16:
    descr = "<f4";
    bf16 = true;
    break;
  case ROCK_DTYPE_F64:
    descr = "<f8";
    break;
  case ROCK_DTYPE_I8:
    descr = "|i1";
    break;
  case ROCK_DTYPE_I32:
    descr = "<i4";
    break;
  case ROCK_DTYPE_I64:
    descr = "<i8";
    break;
  }
  return writeNpy(path, descr, buf->data, rockDTypeGetSize(buf->dtype),
                  buf->numElements, shape, rank, bf16);
}

bool rockNpyWriteF64(const char *path, const double *data, const int64_t *shape,
                     int rank) {
  int64_t count = 1;
  for (int d = 0; d < rank; ++d)
    count *= shape[d];
  return writeNpy(path, "<f8", data, sizeof(double), count, shape, rank, false);
}
