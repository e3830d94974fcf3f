"""lit test format for rocMLIR-schema e2e TOML files (docs/user-guide.md §5).

One lit test per suite test, named `<file>.toml/<suite>/<t>` under the
directory whose lit.local.cfg installs the format (test/e2e).  A test runs
every non-excluded combination of its axes, sequentially, as

    rock-gen <config> <items joined by " ">  <suffix up to FileCheck> | rock-run

through bash with `-o pipefail` and a per-combination timeout.  A
combination passes when the pipeline exits 0 and the last `[x y z]` line of
its stdout is `[1 1 1]` (rock-run's verdict; no FileCheck needed).  Excluded
combinations are listed in the output; a test whose combinations are all
excluded is UNSUPPORTED; a test of level "nightly" is UNSUPPORTED unless lit
runs with `--param suite=nightly`.

Other files of the directory (`*.mlir`) are ordinary ShTest tests.

This module must stay importable on its own (lit pickles the format object
to its worker processes).
"""

import os
import re
import signal
import subprocess
import sys
import time

import lit.formats
import lit.Test

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import toml_expand  # noqa: E402

_TRIPLE = re.compile(r"^\s*\[([01]) ([01]) ([01])\]\s*$")
_TAIL_LINES = 40


def _tail(text, n=_TAIL_LINES):
    lines = text.splitlines()
    if len(lines) > n:
        lines = [f"... ({len(lines) - n} lines omitted)"] + lines[-n:]
    return "\n".join(lines)


def verdict(stdout):
    """The last `[x y z]` line of stdout, or None."""
    last = None
    for line in stdout.splitlines():
        if _TRIPLE.match(line):
            last = line.strip()
    return last


def run_combo(cmd, env, cwd, timeout):
    """Runs one command line; returns (ok, rc, verdict, stdout, stderr,
    seconds, timed_out)."""
    start = time.time()
    p = subprocess.Popen(["/bin/bash", "-o", "pipefail", "-c", cmd],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, env=env, cwd=cwd,
                         start_new_session=True)
    timed_out = False
    try:
        out, err = p.communicate(timeout=timeout if timeout > 0 else None)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        out, err = p.communicate()
    out = out.decode("utf-8", "replace")
    err = err.decode("utf-8", "replace")
    v = verdict(out)
    ok = (not timed_out) and p.returncode == 0 and v == "[1 1 1]"
    return ok, p.returncode, v, out, err, time.time() - start, timed_out


class RockTomlTest(lit.formats.ShTest):
    """ShTest for *.mlir plus one test per TOML suite test."""

    def __init__(self, anchor, configs, tools_dir, level="pr",
                 substitutions=None, timeout=600, execute_external=False,
                 env_extra=None):
        super().__init__(execute_external)
        # path_in_suite of the directory that lists the TOML tests
        self.anchor = tuple(anchor)
        self.configs = list(configs)
        self.tools_dir = tools_dir
        self.level = level
        self.substitutions = dict(substitutions or {})
        self.timeout = timeout
        self.env_extra = dict(env_extra or {})

    # -- discovery ---------------------------------------------------------
    def _toml_files(self):
        files = []
        for c in self.configs:
            if os.path.isdir(c):
                files += sorted(os.path.join(c, f) for f in os.listdir(c)
                                if f.endswith(".toml"))
            elif os.path.isfile(c):
                files.append(c)
        return files

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig,
                            localConfig):
        yield from super().getTestsInDirectory(testSuite, path_in_suite,
                                               litConfig, localConfig)
        if tuple(path_in_suite) != self.anchor:
            return
        tools = {t: os.path.join(self.tools_dir, t)
                 for t in ("rock-gen", "rock-run")}
        for path in self._toml_files():
            base = os.path.basename(path)
            try:
                spec = toml_expand.load(path)
                tests = spec.suite_tests()
            except toml_expand.TomlError as e:
                t = lit.Test.Test(testSuite, path_in_suite + (base,),
                                  localConfig, file_path=path)
                t.rock_toml = {"error": str(e)}
                yield t
                continue
            for st in tests:
                t = lit.Test.Test(testSuite,
                                  path_in_suite + (base, st.suite, str(st.t)),
                                  localConfig, file_path=path)
                t.rock_toml = {
                    "level": st.level,
                    "name": f"{base}/{st.suite}/{st.t}",
                    "combos": [
                        (c.o, c.excluded,
                         toml_expand.exec_command(spec, c, self.substitutions,
                                                  tools))
                        for c in st.combos],
                }
                yield t

    # -- execution ---------------------------------------------------------
    def execute(self, test, litConfig):
        info = getattr(test, "rock_toml", None)
        if info is None:
            return super().execute(test, litConfig)
        if "error" in info:
            return lit.Test.FAIL, f"cannot expand TOML: {info['error']}\n"
        if info["level"] == "nightly" and self.level != "nightly":
            return (lit.Test.UNSUPPORTED,
                    "nightly suite; run lit with --param suite=nightly\n")
        combos = info["combos"]
        env = dict(test.config.environment)
        env.update(self.env_extra)
        cwd = os.path.dirname(test.getExecPath())
        os.makedirs(cwd, exist_ok=True)
        log, fails, excluded, passed = [], [], [], 0
        name = info["name"]
        for o, is_excl, cmd in combos:
            if is_excl:
                excluded.append(o)
                log.append(f"EXCLUDED {name}/{o}: {cmd}")
                continue
            ok, rc, v, out, err, secs, to = run_combo(cmd, env, cwd,
                                                      self.timeout)
            if ok:
                passed += 1
                log.append(f"PASS {name}/{o} ({secs:.1f}s): {cmd}")
                continue
            why = (f"timed out after {self.timeout}s" if to else
                   f"exit {rc}, verdict {v or 'missing'}")
            fails.append(o)
            log.append(f"FAIL {name}/{o} ({why}, {secs:.1f}s)\n"
                       f"  reproduce: {cmd}\n"
                       f"  --- stdout ---\n{_tail(out)}\n"
                       f"  --- stderr ---\n{_tail(err)}")
        run = len(combos) - len(excluded)
        summary = (f"{name}: {passed} passed, {len(fails)} failed, "
                   f"{len(excluded)} excluded of {len(combos)} combinations")
        if fails:
            summary += " (failed: " + ", ".join(map(str, fails)) + ")"
        text = "\n".join(log + [summary]) + "\n"
        if fails:
            return lit.Test.FAIL, text
        if run == 0:
            return lit.Test.UNSUPPORTED, text
        return lit.Test.PASS, text


# The float range of %constrained_float_range_random_data when lit is given
# random data: values in [-1, 1), which keep f16/bf16 products exact enough
# for rocMLIR's LDS-transpose suites.
CONSTRAINED_FLOAT_RANGE = "-rand_type float -rand_min -1 -rand_max 1"


def default_substitutions(params):
    """The %-substitutions of the TOML commands from lit params `params`:
    %arch (cpu), %pv (-pv), %random_data (param random_data, default empty),
    %constrained_float_range_random_data (param of that name; default:
    empty without random data, else random_data followed by
    CONSTRAINED_FLOAT_RANGE), %rock_gen_flags / %rocmlir_gen_flags."""
    rand = params.get("random_data", "")
    gen_flags = params.get("rock_gen_flags",
                           params.get("rocmlir_gen_flags", ""))
    constrained = params.get(
        "constrained_float_range_random_data",
        f"{rand.strip()} {CONSTRAINED_FLOAT_RANGE}" if rand.strip() else "")
    return {
        "arch": "cpu",
        "pv": "-pv",
        "random_data": rand,
        "constrained_float_range_random_data": constrained,
        "rock_gen_flags": gen_flags,
        "rocmlir_gen_flags": gen_flags,
    }


def configure(config, lit_config, anchor, configs=None, tools_dir=None,
              env_extra=None):
    """Installs the format on `config` (call from a lit.local.cfg).

    lit params: suite=pr|nightly, e2e_configs=<dir or .toml>[:<more>],
    random_data=<flags>, constrained_float_range_random_data=<flags>,
    rock_gen_flags=<flags> (alias rocmlir_gen_flags),
    e2e_timeout=<seconds per combination, 0 = none>,
    e2e_tools_dir=<dir holding rock-gen/rock-run> (default: build/bin).
    `env_extra` adds environment variables to every combination."""
    p = lit_config.params
    if configs is None:
        if p.get("e2e_configs"):
            configs = p["e2e_configs"].split(os.pathsep)
        else:
            configs = [os.path.join(config.rock_src_root, "e2e-configs")]
    if tools_dir is None:
        tools_dir = p.get("e2e_tools_dir") or config.rock_tools_dir
    subs = default_substitutions(p)
    ext = getattr(config.test_format, "execute_external", False)
    config.test_format = RockTomlTest(
        anchor, configs, tools_dir, level=p.get("suite", "pr"),
        substitutions=subs, timeout=float(p.get("e2e_timeout", 600)),
        execute_external=ext, env_extra=env_extra)
