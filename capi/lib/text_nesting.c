//===- text_nesting.c - bound bracket nesting before MLIR parses ----------===//
#include "rock-c/TextNesting.h"

#include <stdio.h>

bool rockTextCheckNesting(MlirStringRef text, int maxDepth, char *err,
                          size_t errSize) {
  const char *s = text.data, *end = text.data + text.length;
  long depth = 0, line = 1;
  for (; s < end; ++s) {
    char c = *s;
    if (c == '\n') {
      ++line;
    } else if (c == '"') { // string literal, backslash escapes
      for (++s; s < end && *s != '"'; ++s) {
        if (*s == '\\' && s + 1 < end)
          ++s;
        else if (*s == '\n')
          ++line;
      }
    } else if (c == '/' && s + 1 < end && s[1] == '/') { // comment
      while (s + 1 < end && s[1] != '\n')
        ++s;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > maxDepth) {
        if (errSize)
          snprintf(err, errSize, "line %ld: brackets nest deeper than %d", line,
                   maxDepth);
        return false;
      }
    } else if (c == ')' || c == ']' || c == '}' ||
               (c == '>' && !(s > text.data && s[-1] == '-'))) {
      depth -= depth > 0;
    }
  }
  return true;
}
