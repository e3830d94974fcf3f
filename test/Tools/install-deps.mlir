// scripts/install-deps.sh installs what is missing, whatever dpkg knows:
// checked in --dry-run mode (no network, nothing changed).
//
// A package that is not installed is named in the apt-get command.
// RUN: env ROCK_DEPS_EXTRA=rock-no-such-package-for-test %rock_src/scripts/install-deps.sh --dry-run 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: install-deps: missing: {{(.* )?}}rock-no-such-package-for-test
// EXTRA-NEXT: apt-get update -qq
// EXTRA-NEXT: apt-get install -y -qq --no-install-recommends {{(.* )?}}rock-no-such-package-for-test
//
// A fresh machine: dpkg-query knows none of the packages and exits 1 (the
// script once died there under pipefail before installing anything).
// RUN: rm -rf %t.bin && mkdir -p %t.bin
// RUN: printf '#!/bin/sh\nexit 1\n' > %t.bin/dpkg-query && chmod +x %t.bin/dpkg-query
// RUN: env PATH=%t.bin:$PATH %rock_src/scripts/install-deps.sh --dry-run 2>&1 | FileCheck %s --check-prefix=FRESH
// FRESH: install-deps: missing: libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools lld-22 libomp-22-dev libclang-rt-22-dev rocm-device-libs clang-22 clang-format-22 python3
// FRESH-NEXT: apt-get update -qq
// FRESH-NEXT: apt-get install -y -qq --no-install-recommends libmlir-22-dev {{.*}} libopenblas0-pthread
//
// Everything installed (as after `make test` set itself up): nothing to do.
// RUN: %rock_src/scripts/install-deps.sh --dry-run | FileCheck %s --check-prefix=ALL
// ALL: install-deps: all {{[0-9]+}} packages installed
//
// RUN: not %rock_src/scripts/install-deps.sh --bogus 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: usage: {{.*}}install-deps.sh [--dry-run]
