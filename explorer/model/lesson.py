"""Lessons: a scene plus ordered steps (text, what to look at, a question with its checked
answer). No Qt here.

A lesson file is a version-1 scene file with one more top-level key, ``"lesson"`` (a project
extension, ``docs/scene-v1.md``): every version-1 reader keeps it as an unknown key, so a lesson
opens, evaluates and saves like any scene. Its value::

    {"title": "Segment distance and its regions",
     "source": "Eberly & Schneider, GTCG §10.8.3",
     "steps": [
        {"title": "Region 0",
         "text": "The unconstrained minimum (s_bar, t_bar) lies inside the unit square ...",
         "look": {"pair": ["A", "B"], "panel": "st-plane", "select": "A", "camera": "top",
                  "time": 0.5},
         "question": {"text": "How far apart are the segments?", "kind": "number",
                      "answer": 1.5, "tolerance": 0.01,
                      "check": {"a": "A", "b": "B", "key": "distance"},
                      "why": "..."}}]}

``look`` (all optional): ``pair`` the query pair to choose, ``select`` an object id, ``panel``
the title of a panel to bring forward, ``camera`` one of ``top``, ``front``, ``side``, ``iso``,
``time`` the time to draw moving objects at. ``question`` (optional): ``kind`` ``"number"``
(``answer`` a number, ``tolerance`` absolute, default 1e-3) or ``"choice"`` (``choices`` a list
of ``{"label": ..., "value": ...}``, ``answer`` one of the values). ``check`` names the
``explorer eval`` answer the question is about: the query ``a``, ``b`` (and ``c`` for a three
planes query) and ``key``, a key of that query's result (``distance``, ``intersects``,
``first_t``, ``toi``, ``side``, ...) or a dotted path into it (``trace.region``). A test checks
every shipped lesson's ``answer`` against the library's actual answer; the lesson panel grades
the student against the library's answer for the scene as it is now (so a lesson stays right
when the student drags the objects).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Optional

LESSON_KEY = "lesson"
CAMERAS = ("top", "front", "side", "iso")
DEFAULT_TOLERANCE = 1e-3


class LessonError(ValueError):
    """A lesson breaks a rule of the format; ``str(error)`` names the step and the field."""


@dataclass(frozen=True)
class Choice:
    label: str
    value: Any


@dataclass(frozen=True)
class Check:
    """The library answer a question is about: query ``(a, b)`` or ``(a, b, c)``, ``key``."""

    ids: tuple
    key: str


@dataclass(frozen=True)
class Question:
    text: str
    kind: str  # "number" or "choice"
    answer: Any
    tolerance: float = DEFAULT_TOLERANCE
    choices: tuple = ()
    check: Optional[Check] = None
    why: str = ""


@dataclass(frozen=True)
class Look:
    pair: Optional[tuple] = None
    select: Optional[str] = None
    panel: Optional[str] = None
    camera: Optional[str] = None
    time: Optional[float] = None


@dataclass(frozen=True)
class Step:
    title: str
    text: str
    look: Look = field(default_factory=Look)
    question: Optional[Question] = None


@dataclass(frozen=True)
class Lesson:
    title: str
    steps: tuple
    source: str = ""


@dataclass(frozen=True)
class Grade:
    correct: bool
    message: str
    expected: Any = None


# ----------------------------------------------------------------------------- parsing


def _str(raw: dict, key: str, where: str, required: bool = True, default: str = "") -> str:
    if key not in raw:
        if required:
            raise LessonError(f"{where}: field {key!r}: missing")
        return default
    value = raw[key]
    if not isinstance(value, str):
        raise LessonError(f"{where}: field {key!r}: must be a string, got {_show(value)}")
    return value


def _show(value) -> str:
    import json

    try:
        return json.dumps(value)[:60]
    except (TypeError, ValueError):
        return repr(value)[:60]


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _ids(raw, where: str, ids, n=(2,)) -> tuple:
    if not isinstance(raw, list) or len(raw) not in n or not all(isinstance(i, str) for i in raw):
        raise LessonError(f"{where}: must be a list of {' or '.join(map(str, n))} object ids, "
                          f"got {_show(raw)}")
    for i in raw:
        if i not in ids:
            raise LessonError(f"{where}: no object with id {i!r}")
    if len(set(raw)) != len(raw):
        raise LessonError(f"{where}: names the same object twice ({_show(raw)})")
    return tuple(raw)


def _look(raw, where: str, ids) -> Look:
    if raw is None:
        return Look()
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: must be an object, got {_show(raw)}")
    pair = _ids(raw["pair"], f"{where}: field 'pair'", ids) if "pair" in raw else None
    select = None
    if "select" in raw:
        select = _str(raw, "select", where)
        if select not in ids:
            raise LessonError(f"{where}: field 'select': no object with id {select!r}")
    panel = _str(raw, "panel", where, required=False) or None
    camera = _str(raw, "camera", where, required=False) or None
    if camera is not None and camera not in CAMERAS:
        raise LessonError(f"{where}: field 'camera': must be one of {', '.join(CAMERAS)}, "
                          f"got {camera!r}")
    time = raw.get("time")
    if time is not None and not (_is_number(time) and 0 <= time <= 1):
        raise LessonError(f"{where}: field 'time': must be a number in [0, 1], got {_show(time)}")
    return Look(pair, select, panel, camera, None if time is None else float(time))


def _question(raw, where: str, ids) -> Optional[Question]:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: must be an object, got {_show(raw)}")
    text = _str(raw, "text", where)
    kind = _str(raw, "kind", where)
    if kind not in ("number", "choice"):
        raise LessonError(f"{where}: field 'kind': must be \"number\" or \"choice\", got {kind!r}")
    if "answer" not in raw:
        raise LessonError(f"{where}: field 'answer': missing")
    answer = raw["answer"]
    tolerance = DEFAULT_TOLERANCE
    choices: tuple = ()
    if kind == "number":
        if not _is_number(answer):
            raise LessonError(f"{where}: field 'answer': must be a finite number for a number "
                              f"question, got {_show(answer)}")
        if "tolerance" in raw:
            tolerance = raw["tolerance"]
            if not (_is_number(tolerance) and tolerance >= 0):
                raise LessonError(f"{where}: field 'tolerance': must be a number >= 0, got "
                                  f"{_show(tolerance)}")
    else:
        raw_choices = raw.get("choices")
        if not isinstance(raw_choices, list) or len(raw_choices) < 2:
            raise LessonError(f"{where}: field 'choices': must be a list of at least 2 "
                              f"{{\"label\", \"value\"}} objects, got {_show(raw_choices)}")
        out = []
        for i, c in enumerate(raw_choices):
            if not isinstance(c, dict) or "value" not in c:
                raise LessonError(f"{where}: field 'choices[{i}]': must be an object with "
                                  f"'label' and 'value', got {_show(c)}")
            out.append(Choice(_str(c, "label", f"{where}: choices[{i}]"), c["value"]))
        choices = tuple(out)
        if not any(_same(c.value, answer) for c in choices):
            raise LessonError(f"{where}: field 'answer': {_show(answer)} is not one of the "
                              "choices' values")
    check = None
    if "check" in raw:
        c = raw["check"]
        cw = f"{where}: field 'check'"
        if not isinstance(c, dict):
            raise LessonError(f"{cw}: must be an object, got {_show(c)}")
        names = [k for k in ("a", "b", "c") if k in c]
        if names not in (["a", "b"], ["a", "b", "c"]):
            raise LessonError(f"{cw}: must name the query by 'a' and 'b' (and 'c' for three "
                              f"planes), got {_show(c)}")
        check = Check(_ids([c[k] for k in names], cw, ids, n=(2, 3)), _str(c, "key", cw))
    return Question(text, kind, answer, float(tolerance), choices, check,
                    _str(raw, "why", where, required=False))


def parse(raw: Any, ids) -> Lesson:
    """Validate the ``"lesson"`` value of a scene document whose objects have ``ids``."""
    where = "field 'lesson'"
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: must be an object, got {_show(raw)}")
    title = _str(raw, "title", where)
    steps_raw = raw.get("steps")
    if not isinstance(steps_raw, list) or not steps_raw:
        raise LessonError(f"{where}: field 'steps': must be a non-empty list, got "
                          f"{_show(steps_raw)}")
    steps = []
    for i, s in enumerate(steps_raw):
        sw = f"lesson step {i + 1}"
        if not isinstance(s, dict):
            raise LessonError(f"{sw}: must be an object, got {_show(s)}")
        steps.append(Step(_str(s, "title", sw), _str(s, "text", sw),
                          _look(s.get("look"), f"{sw}: field 'look'", ids),
                          _question(s.get("question"), f"{sw}: field 'question'", ids)))
    return Lesson(title, tuple(steps), _str(raw, "source", where, required=False))


def lesson_of(scene) -> Optional[Lesson]:
    """The scene's lesson (``None`` for a plain scene). The loader has validated it."""
    raw = getattr(scene, "extra", {}).get(LESSON_KEY)
    if raw is None:
        return None
    return parse(raw, set(scene.ids()))


# ----------------------------------------------------------------------------- answers


def _same(a, b) -> bool:
    """JSON equality where ``1 == 1.0`` but ``True != 1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def read_key(result: dict, key: str):
    """``key`` of an ``explorer eval`` result: a top-level key or a dotted path (``trace.region``;
    a number picks a list item). ``KeyError`` naming the missing part."""
    value: Any = result
    done = []
    for part in key.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            where = ".".join(done) or "the result"
            raise KeyError(f"{key!r}: {where} has no {part!r}")
        done.append(part)
    return value


def library_answer(scene, check: Check):
    """What the library answers for ``check`` on ``scene`` now (the ``explorer eval`` value)."""
    import json

    from algorithms.results import to_jsonable

    result = scene.evaluate_query(*check.ids) if len(check.ids) == 3 \
        else scene.evaluate_pair(*check.ids)
    result = json.loads(json.dumps(to_jsonable(result)))
    return read_key(result, check.key)


def parse_given(text: str) -> float:
    """The student's typed number (a decimal comma is accepted), or ``ValueError``."""
    s = text.strip()
    if s.count(",") == 1 and "." not in s:
        s = s.replace(",", ".")
    if not s:
        raise ValueError("type a number first")
    try:
        v = float(s)
    except ValueError:
        raise ValueError(f"{text.strip()!r} is not a number") from None
    if not math.isfinite(v):
        raise ValueError("type a finite number")
    return v


def grade(question: Question, given, expected=None) -> Grade:
    """Grade ``given`` (a number, or a choice's value) against ``expected`` (the library's
    answer now; ``None``: the lesson's stored answer)."""
    if expected is None:
        expected = question.answer
    if question.kind == "number":
        if not _is_number(expected):
            return Grade(False, f"The library has no number here now ({_show(expected)}): the "
                                "scene changed too much for this question.", expected)
        ok = abs(float(given) - float(expected)) <= question.tolerance
        shown = f"{float(expected):.6g}"
        if ok:
            return Grade(True, f"Right: {shown}." + (f" {question.why}" if question.why else ""),
                         expected)
        return Grade(False, f"Not quite: {given:.6g} is off by {abs(given - expected):.3g} "
                            f"(allowed {question.tolerance:g}). Look again.", expected)
    label = next((c.label for c in question.choices if _same(c.value, expected)), _show(expected))
    if _same(given, expected):
        return Grade(True, f"Right: {label}." + (f" {question.why}" if question.why else ""),
                     expected)
    return Grade(False, "Not quite. Look again at what the step points to.", expected)
