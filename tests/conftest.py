import os

from hypothesis import settings

from tests.fuzz import DEFAULT_EXAMPLES, LONG, PROFILE, examples

# Offscreen PyVista renders through EGL here; silence the X warning it would print otherwise.
os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")

# CI (CI=true) runs every property test with a fixed seed so that a green or red run repeats;
# local runs keep hypothesis's random exploration (and its example database) to find new cases.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
# Long fuzz runs (FUZZ_PROFILE=long, FUZZ_SCALE=k: k times every test's examples; tests/fuzz.py,
# .ci/fuzz-long): random, replayed by pytest's --hypothesis-seed, no example database (a replay
# depends on the seed alone), no deadline (a slow example is not a finding). It wins over CI.
settings.register_profile(LONG, derandomize=False, database=None, print_blob=True,
                          deadline=None, max_examples=examples(DEFAULT_EXAMPLES))
if PROFILE == LONG:
    settings.load_profile(LONG)
elif os.environ.get("CI"):
    settings.load_profile("ci")
