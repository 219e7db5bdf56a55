"""Measurements the property tests collect (the largest error against the exact oracle, in
units of the coordinates' scale) are printed after the run, not asserted by a test of their
own: each example already asserts its bound. ``pytest -q tests/algorithms/queries`` shows them."""

import sys

#: test module -> what its WORST dict measures
MEASURED = {
    "tests.algorithms.queries.test_linear_linear": "max |distance - exact| / scale",
    "tests.algorithms.queries.test_linear_capsule": "max error / scale",
}


def pytest_terminal_summary(terminalreporter):
    lines = []
    for module, what in MEASURED.items():
        worst = getattr(sys.modules.get(module), "WORST", None)
        for name, err in sorted((worst or {}).items()):
            lines.append(f"{what} [{name}]: {err:.3g}")
    if lines:
        terminalreporter.write_sep("-", "oracle measurements")
        for line in lines:
            terminalreporter.write_line(line)
