"""The golden files: every shipped scene's ``explorer eval`` output and overlay frame are what
``tests/golden`` recorded (``python -m tests.golden.record`` rewrites them on purpose)."""

import json

import pytest

from tests.golden.record import documents, golden_path, scene_paths


@pytest.mark.parametrize("scene", scene_paths(), ids=lambda p: p.stem)
def test_golden(scene):
    for kind, doc in documents(scene).items():
        want = json.loads(golden_path(kind, scene).read_text())
        assert json.loads(json.dumps(doc, sort_keys=True)) == want, (kind, scene.name)
