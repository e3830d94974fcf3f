# rock: top-level entry points. `make run` and `make test` do all set-up.
BUILD    ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
JOBS     ?= $(shell nproc)
LIT      ?= /usr/lib/llvm-22/bin/lit
LIT_OPTS ?= -sv --time-tests

.PHONY: all deps configure build docs test test-nightly test-asan fuzz fuzz-build run bench clean sweep

all: build

deps:
	@scripts/install-deps.sh

# rock's C++ must be compiled by clang like Debian's MLIR: MLIR identifies op
# traits by type names that GCC and clang spell differently.
CC_FLAGS ?= -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22

$(BUILD)/build.ninja: | deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CC_FLAGS)

configure: $(BUILD)/build.ninja

build: deps configure
	cmake --build $(BUILD) -j $(JOBS)

# The dialect reference from ODS: $(BUILD)/docs/dialect.md (docs/dialect.md is
# the checked-in copy: cp it over after changing a .td description).
docs: deps configure
	cmake --build $(BUILD) --target rock-docs

# Quick (PR) suites, including a few seconds of each fuzz target and the
# fuzz regressions (test/Fuzz: hence the libFuzzer build, about 30 s on 2
# cores); writes lit's JSON report to $(BUILD)/lit-results.json.
test: build fuzz-build
	scripts/run-lit.sh $(BUILD) pr

# Everything, including the nightly TOML suites.
test-nightly: build
	scripts/run-lit.sh $(BUILD) nightly

# ASan + UBSan build of everything, then the quick suites on it.
test-asan: deps
	@test -f $(ASAN_BUILD)/build.ninja || cmake -G Ninja -S . -B $(ASAN_BUILD) \
	  -DCMAKE_BUILD_TYPE=Debug -DROCK_SANITIZE=ON -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ROCK_ASAN=1 scripts/run-lit.sh $(ASAN_BUILD) pr

# libFuzzer targets (fuzz/, clang-22 with ASan + UBSan) in their own build
# directory; `make fuzz FUZZ_SECONDS=600` runs each target that long;
# `make test` builds them and runs a few seconds of each (test/Fuzz/).
fuzz-build: build
	@test -f $(FUZZ_BUILD)/build.ninja || cmake -G Ninja -S . -B $(FUZZ_BUILD) \
	  -DCMAKE_BUILD_TYPE=Release -DROCK_FUZZ=ON $(CC_FLAGS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target rock-fuzz-parse-verify \
	  rock-fuzz-pipeline rock-fuzz-rock-gen-args rock-fuzz-harness

fuzz: fuzz-build
	fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# Random attention sweep (tools/rock_sweep.py); e.g. SWEEP_OPTS="--samples 100 --small".
SWEEP_OPTS ?= --samples 100 --small
sweep: build
	$(BUILD)/bin/rock-sweep -j $(JOBS) $(SWEEP_OPTS)

run: build
	scripts/run-demo.sh $(BUILD)

# make bench BENCH_OPTS="--cpu x86-64-v3": rock's kernels as an AVX2-only CPU runs them.
BENCH_OPTS ?=
bench: build
	ROCK_BENCH_DEPS=1 scripts/install-deps.sh
	/usr/bin/python3 bench/run.py --build $(BUILD) --out $(BUILD)/bench $(BENCH_OPTS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
