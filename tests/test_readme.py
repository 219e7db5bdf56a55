"""The README stays true: its two commands, CI's test command, the spec copy, the query table."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _indented_commands(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.startswith("    ") and
            line.strip().startswith("python3 -m venv")]


def test_readme_opens_with_the_two_commands_app_first_then_tests():
    first = README.split("## ")[0]  # everything before the first section
    commands = _indented_commands(first)
    assert len(commands) == 2
    assert commands[0].endswith(".venv/bin/explorer")
    assert "pytest" in commands[1] and '".[test]"' in commands[1]


def test_ci_runs_exactly_the_readmes_test_command():
    test_command = _indented_commands(README)[1]
    ci_lines = [line.strip() for line in (ROOT / ".ci/run").read_text().splitlines()
                if line.strip() and not line.strip().startswith("#")]
    assert ci_lines[-1] == test_command


def test_readme_screenshot_exists():
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README)
    assert images, "the README shows a screenshot of the app"
    for image in images:
        assert (ROOT / image).is_file(), image


def test_project_copy_of_the_spec_matches_the_shared_one():
    shared = ROOT.parent / "shared" / "spec" / "scene-v1.md"
    if not shared.exists():
        pytest.skip("no shared/ beside this checkout")
    ours = (ROOT / "docs" / "scene-v1.md").read_text()
    # the project documents its extensions below the shared text, which stays unchanged
    assert ours.split("\n## Project extensions\n", 1)[0].rstrip("\n") == \
        shared.read_text().rstrip("\n")


def test_readme_query_table_is_up_to_date():
    from explorer.doc_queries import BEGIN, END, table

    current = README.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert current == table().strip(), "run: python -m explorer.doc_queries --write"
