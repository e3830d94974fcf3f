# -*- Python -*-
# Nested lit suite used by test/e2e/toml-format-*.mlir: runs the TOML format
# over --param e2e_configs with the fake tools of --param e2e_tools_dir.
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
import rock_toml_format  # noqa: E402

config.name = "FAKE"
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = lit_config.params["out"]
rock_toml_format.configure(
    config, lit_config, anchor=(),
    configs=lit_config.params["e2e_configs"].split(os.pathsep),
    tools_dir=lit_config.params["e2e_tools_dir"])
