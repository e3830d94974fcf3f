//===- rock_gen_args.c - fuzz target: rock-gen's argument parser ----------===//
//
// The bytes are argv: tokens separated by '\n' (at most 48), after
// "rock-gen". tools/rock_gen.c and rock_gen_flags.c are compiled into this
// target with main renamed and exit() turned into a longjmp back here
// (fuzz/CMakeLists.txt), so an input that ends in rock-gen's "error: ...
// exit 2" is one ordinary execution. Output flags (-o) are dropped: the target
// writes no files and reads no input module (--emit-tuning-key FILE); the
// module goes to stdout (run with -close_fd_mask=1).
//
//===----------------------------------------------------------------------===//
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int rock_gen_main(int argc, char **argv);
_Noreturn void rock_fuzz_exit(int status);
void rock_fuzz_key_from_module(const char *path, const char *arch,
                               int64_t numCu, _Bool hasNumCu);

/// Stands in for rock-gen's module reader (`--emit-tuning-key FILE`): the
/// target reads no files and never blocks on stdin.
void rock_fuzz_key_from_module(const char *path, const char *arch,
                               int64_t numCu, _Bool hasNumCu) {
  (void)path;
  (void)arch;
  (void)numCu;
  (void)hasNumCu;
}

static jmp_buf back;

_Noreturn void rock_fuzz_exit(int status) {
  longjmp(back, status ? status : 256);
}

static int isOutputFlag(const char *t) {
  const char *s = t[0] == '-' ? t + 1 + (t[1] == '-') : t;
  size_t n = strcspn(s, "=");
  return t[0] == '-' &&
         ((n == 1 && s[0] == 'o') || (n == 6 && !strncmp(s, "output", 6)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  enum { MAX_ARGS = 48 };
  if (size > 4096)
    return 0;
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = 0;
  static char name[] = "rock-gen";
  char *argv[MAX_ARGS + 2] = {name};
  int argc = 1;
  for (char *t = strtok(text, "\n"); t && argc <= MAX_ARGS;
       t = strtok(NULL, "\n")) {
    if (isOutputFlag(t))
      goto done;
    argv[argc++] = t;
  }
  argv[argc] = NULL;
  if (setjmp(back) == 0)
    (void)rock_gen_main(argc, argv);
done:
  free(text);
  return 0;
}
