"""The golden files: every shipped scene's ``explorer eval`` output and overlay frame are what
``tests/golden`` recorded (``python -m tests.golden.record`` rewrites them on purpose)."""

import json

import pytest

from tests.golden.record import differences, documents, golden_path, scene_paths


@pytest.mark.parametrize("scene", scene_paths(), ids=lambda p: p.stem)
def test_golden(scene):
    for kind, doc in documents(scene).items():
        want = json.loads(golden_path(kind, scene).read_text())
        # (numbers within record.FLOAT_REL: their last bits depend on the CPU's numpy kernels)
        assert differences(want, json.loads(json.dumps(doc, sort_keys=True))) == [], \
            (kind, scene.name)


def test_differences_forgive_the_last_bits_only():
    # 0.009676418593365424 -> ...425 and -1.2912043989403323 -> ...326: what an AVX2 machine
    # printed for GJK's trace where the files had an AVX-512 machine's (a few ulps)
    want = {"gap": 0.009676418593365424, "lower_bound": -1.2912043989403323, "n": 3,
            "ok": True, "method": "GJK", "pts": [[0.0, 1.0]]}
    got = dict(want, gap=0.009676418593365425, lower_bound=-1.2912043989403326)
    assert differences(want, got) == []
    # a changed answer is not forgiven: 1e-9 off, a flipped bool, a new string, a key, a length
    for change in ({"gap": 0.009676418603365424}, {"ok": False}, {"method": "SAT"},
                   {"n": 4}, {"pts": [[0.0, 1.0], [2.0, 3.0]]}, {"pts": [[0.0, 1.0 + 1e-9]]}):
        assert differences(want, dict(want, **change)) != [], change
    assert differences(want, {k: v for k, v in want.items() if k != "n"}) != []
    assert differences({"x": True}, {"x": 1}) != [] and differences({"x": 0}, {"x": None}) != []


def test_the_recorder_s_help_and_a_wrong_name_write_nothing(capsys):
    # `--help` used to fall through to recording every file (it rewrote gui_hundred's with
    # this machine's last bits); now it prints the usage, and a wrong name is refused
    from tests.golden import record

    files = sorted((record.HERE / "eval").glob("*.json")) + sorted(
        (record.HERE / "frames").glob("*.json"))
    before = {p: p.stat().st_mtime_ns for p in files}
    for argv, code in ((["--help"], 0), (["no_such_scene"], 2)):
        with pytest.raises(SystemExit) as e:
            record.main(argv)
        assert e.value.code == code
    assert "usage: python -m tests.golden.record" in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in files} == before
