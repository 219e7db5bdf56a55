"""Hostile files (issue 15, part 3): each is evaluated or refused with ONE line of bounded
length, exit 2, no traceback, no hang, no unbounded memory; long evaluations stop on Ctrl+C.

Each listed example of the issue is a case here.
"""

import json
import os
import signal
from pathlib import Path

import pytest

from explorer import cli
from explorer.cli import main
from explorer.model import scenefile
from tests.explorer.processes import start_explorer
from explorer.model.scenefile import MAX_DEPTH, MAX_MESSAGE, SceneError, load, loads

ROOT = Path(__file__).resolve().parents[3]
HEAD = '{"format": "intersection-explorer-scene", "version": 1, "objects": ['
SPHERE = '{"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": %s}'


def one_line_exit_2(capsys, path, *extra) -> str:
    assert main(["eval", str(path), *extra]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err[:500]
    assert lines[0].startswith("explorer: ") and "Traceback" not in err
    assert len(lines[0]) <= cli.MAX_LINE
    return lines[0]


@pytest.mark.parametrize("digits", [400, 401, 5001])
def test_huge_integer_literals_are_refused_as_overflowing(tmp_path, capsys, digits):
    # 400 digits overflow a double (OverflowError before); 5001 exceed Python's 4300-digit
    # integer-string limit (ValueError before): both are "literals that overflow" (spec)
    f = tmp_path / "big.json"
    f.write_text(HEAD + SPHERE % ("1" * digits) + "]}")
    line = one_line_exit_2(capsys, f)
    assert f"object 'S': field 'radius': number must be finite, got a {digits}-digit " \
           "integer" in line


def test_a_309_digit_integer_that_fits_a_double_is_a_number():
    # 10**308 has 309 digits and is below the largest double (1.797e308): a valid radius
    scene = loads(HEAD + SPHERE % ("1" + "0" * 308) + "]}")
    assert scene["S"].primitive.radius == 1e308


def test_a_huge_integer_in_an_unknown_key_is_refused_too():
    with pytest.raises(SceneError, match="field 'mass': number must be finite, got a 400-digit"):
        loads(HEAD + SPHERE[:-1] % 1 + ', "mass": ' + "9" * 400 + "}]}")


@pytest.mark.parametrize("depth", [65, 200, 900, 1000, 100_000])
def test_deep_nesting_is_refused_in_one_line(tmp_path, capsys, depth):
    f = tmp_path / "deep.json"
    f.write_text(HEAD + SPHERE[:-1] % 1 + ', "extra": ' + "[" * depth + "]" * depth + "}]}")
    line = one_line_exit_2(capsys, f)
    assert "nested" in line and str(MAX_DEPTH) in line


def test_nesting_up_to_the_limit_is_kept():
    # "extra" is at depth 3 (top level, objects list, the object); 61 more lists reach 64
    value = "[" * 61 + "]" * 61
    scene = loads(HEAD + SPHERE[:-1] % 1 + ', "extra": ' + value + "}]}")
    assert "extra" in scene["S"].extra
    with pytest.raises(SceneError, match="object 'S': field 'extra"):
        loads(HEAD + SPHERE[:-1] % 1 + ', "extra": ' + "[" + value + "]" + "}]}")


def test_nan_inside_a_query_entry_is_refused(tmp_path, capsys):
    f = tmp_path / "q.json"
    f.write_text(HEAD + SPHERE % 1 + ', {"id": "P", "type": "point", "position": [0, 0, 0]}], '
                 '"queries": [{"a": "S", "b": "P", "weight": NaN}]}')
    line = one_line_exit_2(capsys, f)
    assert "queries[0]: field 'weight': number must be finite, got NaN" in line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path, capsys):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # nobody writes: opening it for reading would block for ever
    line = one_line_exit_2(capsys, fifo)
    assert "FIFO" in line and "not a regular file" in line


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_is_refused_unread(capsys):
    line = one_line_exit_2(capsys, "/dev/zero")
    assert "device" in line and "not a regular file" in line


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path, capsys, monkeypatch):
    # a 20 MB id (the example) is over the 16 MB limit
    f = tmp_path / "big-id.json"
    f.write_text(HEAD + '{"id": "' + "x" * (20 << 20) + '", "type": "torus"}]}')
    line = one_line_exit_2(capsys, f)
    assert "larger than 16 MB" in line


def test_a_huge_id_is_never_echoed_whole(tmp_path, capsys):
    # under the size limit, a 1 MB id with a wrong type: the message names it, cut short
    f = tmp_path / "long-id.json"
    f.write_text(HEAD + '{"id": "' + "x" * (1 << 20) + '", "type": "torus"}]}')
    line = one_line_exit_2(capsys, f)
    assert "(1048576 characters)" in line and "unknown type" in line
    assert len(line) < 400


@pytest.mark.parametrize("text", [
    HEAD + '{"id": "' + "y" * 100_000 + '", "type": "sphere", "center": [0, 0], "radius": 1}]}',
    HEAD + SPHERE % 1 + ', ' + SPHERE % 1 + "]}",  # duplicate id
    HEAD + SPHERE % ('"' + "z" * 100_000 + '"') + "]}",  # a huge string for a number
    HEAD + '{"id": "S", "type": "sphere", "center": [' + "0, " * 100_000 + '0], "radius": 1}]}',
    HEAD + SPHERE % 1 + '], "queries": [{"a": "S", "b": "' + "q" * 100_000 + '"}]}',
    HEAD + '{"id": "a\\nb", "type": "torus"}]}',  # a newline in an id stays one line
])
def test_every_message_is_one_bounded_line(text):
    with pytest.raises(SceneError) as info:
        loads(text)
    message = str(info.value)
    assert "\n" not in message and len(message) <= MAX_MESSAGE


def test_a_path_with_a_newline_is_written_on_one_line(tmp_path, capsys):
    f = tmp_path / "two\nlines.json"
    f.write_text("{")
    line = one_line_exit_2(capsys, f)
    assert "two\\nlines.json" in line


def test_the_missing_file_message_names_the_path_once(tmp_path, capsys):
    line = one_line_exit_2(capsys, tmp_path / "nope.json")
    assert line.count("nope.json") == 1 and line.endswith("no such file")


def test_loads_refuses_text_over_the_size_limit(monkeypatch):
    monkeypatch.setattr(scenefile, "MAX_FILE_BYTES", 100)
    with pytest.raises(SceneError, match="longer than 100"):
        loads(HEAD + SPHERE % 1 + "]}" + " " * 100)


# ----------------------------------------------------------------------------- many pairs


def many_objects(n: int) -> str:
    objs = [{"id": f"O{i}", "type": "sphere", "center": [2 * i, 0, 0], "radius": 0.5}
            for i in range(n)]
    return json.dumps({"format": "intersection-explorer-scene", "version": 1, "objects": objs})


def test_a_scene_asking_for_more_pairs_than_the_limit_is_refused_at_once(tmp_path, capsys):
    # 1,000 objects without `queries` ask for 1000 * 999 / 2 = 499,500 pairs (153 s, 2 GB
    # before); the default limit is 100,000, and the pairs are counted, never listed
    f = tmp_path / "many.json"
    f.write_text(many_objects(1000))
    line = one_line_exit_2(capsys, f)
    assert "1000 objects and no 'queries' list make 499500 pairs" in line
    assert "--max-pairs" in line


def test_max_pairs_is_an_option(tmp_path, capsys):
    f = tmp_path / "six.json"
    f.write_text(many_objects(6))  # 15 pairs
    line = one_line_exit_2(capsys, f, "--max-pairs", "14")
    assert "make 15 pairs, more than the limit of 14" in line
    assert main(["eval", str(f), "--max-pairs", "15"]) == 0
    assert len(json.loads(capsys.readouterr().out)["results"]) == 15


def test_streamed_output_is_byte_identical_to_the_whole_document(tmp_path, capsys):
    f = ROOT / "scenes" / "welcome.json"
    assert main(["eval", str(f)]) == 0
    streamed = capsys.readouterr().out
    whole = json.dumps(cli.eval_document(load(f)), allow_nan=False) + "\n"
    assert streamed == whole


def test_ctrl_c_stops_a_long_eval_with_one_line(tmp_path):
    # 400 objects without `queries`: 79,800 pairs, several seconds; interrupted after the
    # first results arrive, it stops with exit status 130 and one line (no traceback)
    f = tmp_path / "400.json"
    f.write_text(many_objects(400))
    p = start_explorer("eval", str(f))
    first = p.stdout.read(20_000)  # some results were written: it is evaluating
    assert first.startswith(b'{"results": [{"a": "O0", "b": "O1"')
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130
    lines = err.decode().splitlines()
    assert len(lines) == 1 and "interrupted after" in lines[0] and "of 79800 pairs" in lines[0]


def test_an_unexpected_exception_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    def boom(path):
        raise TypeError("a bug")

    monkeypatch.setattr(cli, "_load", boom)
    line = one_line_exit_2(capsys, tmp_path / "x.json")
    assert "internal error (TypeError: a bug)" in line


def test_a_file_of_millions_of_empty_objects_is_refused_before_parsing(tmp_path, capsys):
    # 16 MB of "{}," parse into 5.6 million dicts: 1.5 GB and 22 s; refused at once instead
    f = tmp_path / "bomb.json"
    f.write_text(HEAD + SPHERE[:-1] % 1 + ', "junk": [' + ",".join(["{}"] * 300_000)
                 + "]}]}")
    line = one_line_exit_2(capsys, f)
    assert "more than 200000 lists and objects" in line


def test_a_scene_of_10000_objects_is_under_the_container_limit():
    objs = ",".join('{"id": "B%d", "type": "obb", "center": [0, 0, 0], "axes": [[1, 0, 0], '
                    '[0, 1, 0], [0, 0, 1]], "extents": [1, 1, 1]}' % i for i in range(10_000))
    assert len(loads(HEAD + objs + "]}")) == 10_000  # 6 per obb: 60,000 < 200,000
