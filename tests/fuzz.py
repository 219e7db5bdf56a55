"""Example counts of the property tests, scaled for long fuzz runs.

The test command runs every property test with the example count its ``@settings`` names (CI:
derandomized). ``FUZZ_PROFILE=long`` loads the hypothesis profile ``long`` (registered in
tests/conftest.py: random, no example database, no deadline) and multiplies every count by
``FUZZ_SCALE`` (default 20): the profile's default of 100 examples, and each test's own count,
written ``@settings(max_examples=examples(150))``. Hypothesis lets an explicit
``max_examples`` win over the loaded profile, so a count is scaled where it is written, with
this function; tests/test_style.py checks that no test writes a bare number.
``.ci/fuzz-long`` runs the long mode with a random seed and prints the command replaying it.
"""

import os

#: the profile that scales the counts (any other value, or none, leaves them as written)
LONG = "long"
PROFILE = os.environ.get("FUZZ_PROFILE", "")
if PROFILE not in ("", LONG):
    raise ValueError(f"FUZZ_PROFILE={PROFILE!r}: the only profile is {LONG!r}")
#: the multiplier of every example count under FUZZ_PROFILE=long
SCALE = float(os.environ.get("FUZZ_SCALE", "20")) if PROFILE == LONG else 1.0
#: hypothesis's own default count, which a test without an explicit max_examples runs
DEFAULT_EXAMPLES = 100


def examples(n: int) -> int:
    """``n`` examples, times FUZZ_SCALE under FUZZ_PROFILE=long (``n`` itself otherwise)."""
    if SCALE == 1.0:
        return n
    return max(1, round(n * SCALE))
