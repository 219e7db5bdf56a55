"""The long fuzz mode (tests/fuzz.py, tests/conftest.py's profile ``long``, .ci/fuzz-long) scales
every property test's example count, its own ``@settings(max_examples=...)`` included, and the
default CI run stays as it was: derandomized, with the counts the tests name.

Each case runs a two-test file through pytest in a subprocess, with the project's conftest as a
plugin, and counts the examples each test received."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = '''
import os
from hypothesis import given, settings, strategies as st
from tests.fuzz import examples


def record(name, x):
    with open(os.environ["PROBE_OUT"], "a") as f:
        f.write(f"{name} {x}\\n")


@settings(max_examples=examples(7))
@given(st.integers())
def test_own_count(x):
    record("own", x)


@given(st.integers())
def test_default_count(x):
    record("default", x)
'''


@pytest.fixture
def probe(tmp_path):
    path = tmp_path / "test_probe.py"
    path.write_text(PROBE)
    return path


def run(probe, env_extra, *args, command=None):
    """The probe's recorded examples: {"own": [...], "default": [...]}, and pytest's output."""
    out = probe.with_name("out.txt")
    out.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("CI", "FUZZ_PROFILE", "FUZZ_SCALE", "SEED")}
    env.update(PYTHONPATH=str(ROOT), PROBE_OUT=str(out), PYTHON=sys.executable, **env_extra)
    if command is None:
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   "-p", "tests.conftest", str(probe), *args]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    seen = {"own": [], "default": []}
    for line in out.read_text().splitlines():
        name, x = line.split()
        seen[name].append(int(x))
    return seen, done.stdout


def test_the_ci_run_is_derandomized_with_the_counts_the_tests_name(probe):
    first, _ = run(probe, {"CI": "true"})
    assert (len(first["own"]), len(first["default"])) == (7, 100)
    second, _ = run(probe, {"CI": "true", "FUZZ_SCALE": "5"})  # FUZZ_SCALE alone changes nothing
    assert second == first  # derandomized: the same examples, run after run


def test_the_long_profile_scales_every_count_and_its_seed_replays_it(probe):
    long3, _ = run(probe, {"CI": "true", "FUZZ_PROFILE": "long", "FUZZ_SCALE": "3"},
                   "--hypothesis-seed=12345")
    assert (len(long3["own"]), len(long3["default"])) == (21, 300)  # 3 x 7, 3 x 100
    again, _ = run(probe, {"FUZZ_PROFILE": "long", "FUZZ_SCALE": "3"}, "--hypothesis-seed=12345")
    assert again == long3
    other, _ = run(probe, {"FUZZ_PROFILE": "long", "FUZZ_SCALE": "3"}, "--hypothesis-seed=54321")
    assert other != long3  # random: a seed picks the examples, the CI run's are not forced
    ci, _ = run(probe, {"CI": "true"})
    assert long3["own"][:7] != ci["own"]


def test_fuzz_long_prints_the_seed_and_a_command_that_replays_the_run(probe):
    seen, stdout = run(probe, {"FUZZ_SCALE": "2"},
                       command=[str(ROOT / ".ci" / "fuzz-long"), str(probe), "-p", "tests.conftest"])
    assert (len(seen["own"]), len(seen["default"])) == (14, 200)
    seed = re.search(r"^SEED=(\d+) FUZZ_SCALE=2$", stdout, re.M).group(1)
    replay = re.search(r"^replay: (.*)$", stdout, re.M).group(1)
    assert f"--hypothesis-seed={seed}" in replay and "FUZZ_PROFILE=long" in replay
    replayed, _ = run(probe, {}, command=["bash", "-c", replay])
    assert replayed == seen
    assert shlex.split(replay)[0] == "cd"


def test_no_property_test_names_an_unscaled_example_count():
    """A bare number after ``max_examples=`` would not grow under FUZZ_PROFILE=long: every count in the
    tests is written ``examples(n)`` (or goes through a helper that calls it)."""
    bare = [f"{path.relative_to(ROOT)}:{i}" for path in sorted((ROOT / "tests").rglob("*.py"))
            for i, line in enumerate(path.read_text().splitlines(), 1)
            if re.search(r"max_examples=\d", line)]
    assert bare == []


def test_an_unknown_fuzz_profile_is_refused():
    done = subprocess.run([sys.executable, "-c", "import tests.fuzz"], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "FUZZ_PROFILE": "lng"},
                          capture_output=True, text=True)
    assert done.returncode != 0 and "FUZZ_PROFILE='lng'" in done.stderr
