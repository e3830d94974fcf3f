/*===- err.c - error messages into caller buffers -------------------------===*/
#include "err.h"

#include <stdarg.h>
#include <stdio.h>

bool rock__fail(char *err, size_t errLen, const char *fmt, ...) {
  if (err && errLen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errLen, fmt, ap);
    va_end(ap);
  }
  return false;
}
