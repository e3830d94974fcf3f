# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "ROCK"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.rock_obj_root, "test")

# suite=pr (default) runs the quick suites; suite=nightly adds the long ones.
config.rock_suite = lit_config.params.get("suite", "pr")
if config.rock_suite == "nightly":
    config.available_features.add("nightly")

# The CPU the JIT generates code for (runtime/jit.h): the host, or the one
# ROCK_JIT_CPU names (`ROCK_JIT_CPU=x86-64-v3 make test` runs every suite for
# an AVX2-only CPU). Features describe that CPU:
# - avx512bf16: rock-run then uses the `dot` GemmFeature;
# - avx512vnni: rock-run sets rock.vnni (vpdpbusd in the i8 prefill);
# - amx: rock-run sets rock.amx (AMX tiles in the bf16 prefill, docs/cpu.md);
# - avx512: the narrow-type e2e suites and the JIT execution tests run once
#   more for x86-64-v3 (test/e2e-x86-64-v3, `%if avx512` RUN lines), so a
#   path that needs AVX-512 cannot pass unnoticed where CI happens to have it.
try:
    with open("/proc/cpuinfo") as f:
        _cpu_flags = f.read()
except OSError:
    _cpu_flags = ""
if os.environ.get("ROCK_JIT_CPU"):
    config.environment["ROCK_JIT_CPU"] = os.environ["ROCK_JIT_CPU"]
else:
    if " avx512_bf16" in _cpu_flags:
        config.available_features.add("avx512bf16")
    if " avx512f" in _cpu_flags:
        config.available_features.add("avx512")
    if " avx512_vnni" in _cpu_flags and " avx512bw" in _cpu_flags:
        config.available_features.add("avx512vnni")
    # amx: the AMX tile forms run (rock-run requests the tile state from
    # Linux itself); elsewhere their code is only generated and FileChecked.
    if all(f" {f}" in _cpu_flags for f in ("amx_tile", "amx_bf16", "amx_int8")):
        config.available_features.add("amx")

# The CUDA toolkit (not a Debian package): PTX is checked with its ptxas.
ptxas = os.environ.get("ROCK_PTXAS", "/usr/local/cuda/bin/ptxas")
if os.access(ptxas, os.X_OK):
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%ptxas", ptxas))

# AMD code objects: the build's ROCm-layout toolkit (rocm-device-libs and
# lld-22, cmake/RockRocmToolkit.cmake) and llvm-readelf / llvm-objdump.
rocm_tk = os.path.join(config.rock_obj_root, "rocm-toolkit")
if (os.path.exists(os.path.join(rocm_tk, "amdgcn", "bitcode", "ocml.bc"))
        and os.access(os.path.join(rocm_tk, "llvm", "bin", "ld.lld"), os.X_OK)
        and os.access(os.path.join(config.llvm_tools_dir, "llvm-readelf"),
                      os.X_OK)):
    config.available_features.add("rocm-device-libs")

# rock-gen's default perf DB (docs/tuning.md) would change the kernels of
# the shapes it has entries for: tests pin the heuristic's, and the tuning
# tests name their DB with --perf-db (or unset this).
config.environment["ROCK_PERF_DB"] = "none"

config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false")
for var in ("ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES",
            "ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES"):
    config.environment.pop(var, None)
if os.environ.get("ROCK_ASAN"):
    # allow_user_poisoning=0: LLVM's header-inline BumpPtrAllocator poisons
    # slabs when compiled with ASan (our C++ glue) but not in Debian's
    # uninstrumented libMLIR, which allocates from the same slabs: every
    # attribute uniqued there would read as use-after-poison.
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:allow_user_poisoning=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    config.available_features.add("asan")
# Upstream mlir-opt is not instrumented: to dlopen the ASan RockPlugin.so it
# needs the ASan runtime preloaded. Plugin tests run `%plugin_env mlir-opt`.
plugin_env = ""
if os.environ.get("ROCK_ASAN"):
    import subprocess
    libasan = subprocess.run(["cc", "-print-file-name=libasan.so"],
                             capture_output=True, text=True).stdout.strip()
    plugin_env = "env LD_PRELOAD=" + libasan
config.substitutions.append(("%plugin_env", plugin_env))

llvm_config.with_system_environment(["HOME", "TMPDIR"])
llvm_config.use_default_substitutions()
config.substitutions.append(("%rock_libs", config.rock_libs_dir))
config.substitutions.append(("%shlibext", config.shlibext))
config.substitutions.append(("%rock_src", config.rock_src_root))
config.substitutions.append(("%rock_obj_root", config.rock_obj_root))
config.substitutions.append(
    ("%rock_plugin", os.path.join(config.rock_libs_dir,
                                  "RockPlugin" + config.shlibext)))

tool_dirs = [config.rock_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["rock-opt", "rock-gen", "rock-run", "mlir-opt", "mlir-translate",
     "mlir-runner"],
    tool_dirs)

# mlir-runner runs rocmlir-gen's host harness (@main) of a lowered rock-gen
# module: the C runner utilities (vector.print) and libomp (the CPU kernel).
llvm_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
runner_libs = [os.path.join(llvm_lib_dir, n + config.shlibext)
               for n in ("libmlir_c_runner_utils", "libomp")]
if all(os.path.exists(l) for l in runner_libs):
    config.available_features.add("mlir-runner")
    config.substitutions.append(
        ("%mlir_runner_libs", " ".join("-shared-libs=" + l for l in runner_libs)))
llvm_config.with_environment("PATH", config.rock_tools_dir, append_path=True)
# llc: x86 code of kernels for CPUs other than the host (AMX), FileChecked.
config.substitutions.append(("%llc", os.path.join(config.llvm_tools_dir, "llc")))
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
