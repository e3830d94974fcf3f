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
    # Upstream mlir-opt is not instrumented: it cannot dlopen the ASan
    # RockPlugin.so. Tests that load the plugin say `UNSUPPORTED: asan`.
    config.available_features.add("asan")

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
    ["rock-opt", "rock-gen", "rock-run", "mlir-opt", "mlir-translate"],
    tool_dirs)
llvm_config.with_environment("PATH", config.rock_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
