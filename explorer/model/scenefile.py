"""Scene files, version 1 (``scene-v1.md``): load with every rule enforced, save atomically.

:func:`load` / :func:`loads` raise :class:`SceneError` with one clear message naming the object
id (where there is one), the field and what is wrong. :func:`save` writes a temporary file in
the same folder and renames it over the target, so a crash never leaves half a file. Unknown
top-level and object keys survive a round trip.

No Qt here.

Examples
--------
>>> scene = loads('{"format": "intersection-explorer-scene", "version": 1, '
...               '"objects": [{"id": "P", "type": "point", "position": [1, 2, 3]}]}')
>>> scene["P"].primitive.position
(1.0, 2.0, 3.0)
>>> loads('{"format": "intersection-explorer-scene", "version": 1, "objects": '
...       '[{"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": -1}]}')
Traceback (most recent call last):
...
explorer.model.scenefile.SceneError: object 'S' (sphere): field 'radius': must be >= 0, got -1
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

from algorithms.primitives import TYPES, GeometryError, field_names, from_fields
from explorer.model.scene import Scene, SceneObject

FORMAT = "intersection-explorer-scene"
VERSION = 1
#: object keys with a meaning in the spec (besides the type's fields)
OBJECT_KEYS = ("id", "type", "label", "color", "motion")
#: the top-level key of a lesson file (docs/scene-v1.md, project extensions)
LESSON_KEY = "lesson"
#: the kinds that may carry ``"hollow": true`` (their surface only; GTCG §11.12.8)
HOLLOW_KINDS = ("sphere", "aabb")


# ----------------------------------------------------------------------------- loading


#: the largest scene file read (a 10,000-object scene is about 1.5 MB); larger ones are refused
MAX_FILE_BYTES = 16 * 1024 * 1024
#: the most lists and objects (counted as ``{`` and ``[``) a file may have: 5.6 million empty
#: objects fit in 16 MB and take 1.5 GB once parsed; a 10,000-object scene has about 50,000
MAX_CONTAINERS = 200_000
#: the deepest nesting of lists and objects accepted anywhere (the spec's own fields need 4)
MAX_DEPTH = 64
#: an integer literal with more digits than this cannot be a finite double (1.8e308 has 309)
_MAX_INT_DIGITS = 309
#: the longest refusal message; longer ones are cut (a 20 MB id must not reach a dialog whole)
MAX_MESSAGE = 400


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit - 24] + f"... ({len(text)} characters)"


def _one_line(text: str) -> str:
    """Control characters (a newline in an id or a path) written as escapes: one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _show(value) -> str:
    """An id or key for a message: quoted, on one line, at most about 60 characters."""
    if isinstance(value, str) and len(value) > 48:
        return repr(value[:40]) + f"... ({len(value)} characters)"
    return _one_line(repr(value))


def _brief(value) -> str:
    """A JSON value for a message, at most about 60 characters (never the whole of a huge one)."""
    if isinstance(value, str) and len(value) > 48:
        return json.dumps(value[:40]) + f"... ({len(value)} characters)"
    if isinstance(value, (list, dict)) and len(value) > 20:
        kind = "list" if isinstance(value, list) else "object"
        return f"a {kind} of {len(value)} items"
    try:
        text = json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        text = type(value).__name__
    return _cut(_one_line(text), 60)


class SceneError(ValueError):
    """A scene file breaks a rule of scene-v1. ``str(error)`` is the one-line message (at most
    :data:`MAX_MESSAGE` characters: a huge value in a file is never echoed whole)."""

    def __init__(self, message: str = ""):
        super().__init__(_cut(_one_line(str(message)), MAX_MESSAGE))


class _Overflow(float):
    """An integer literal too large for a double: parsed as infinity (then refused by
    :func:`_check_finite` with its digit count), never converted digit by digit."""

    digits = 0


def _parse_int(literal: str):
    digits = len(literal) - (literal[0] == "-")
    if digits <= _MAX_INT_DIGITS:
        value = int(literal)
        try:
            float(value)
            return value
        except OverflowError:
            pass
    out = _Overflow("-inf" if literal[0] == "-" else "inf")
    out.digits = digits
    return out


def read_text(path) -> str:
    """The text of the scene file ``path``, refused with a :class:`SceneError` when it cannot
    be a scene file: missing, a folder, not a regular file (a FIFO would block for ever,
    ``/dev/zero`` never ends), larger than :data:`MAX_FILE_BYTES`, or not UTF-8."""
    path = Path(path)
    shown = "the file"  # every caller names the path before the message: not twice
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise SceneError("no such file") from None
    except IsADirectoryError:
        raise SceneError("is a folder, not a scene file") from None
    except OSError as exc:
        raise SceneError(f"cannot read ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise SceneError("is a folder, not a scene file")
        if not stat.S_ISREG(st.st_mode):
            kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(st.st_mode) else
                    "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
                    "a socket" if stat.S_ISSOCK(st.st_mode) else "not a plain file")
            raise SceneError(f"{shown} is {kind}, not a regular file")
        too_big = (f"{shown} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; scene files "
                   "are refused above that size")
        if st.st_size > MAX_FILE_BYTES:
            raise SceneError(too_big)
        chunks, total = [], 0
        while True:  # read at most MAX_FILE_BYTES + 1 bytes, whatever the size claimed
            chunk = os.read(fd, min(1 << 20, MAX_FILE_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > MAX_FILE_BYTES:
                raise SceneError(too_big)
    except OSError as exc:
        raise SceneError(f"cannot read ({exc.strerror})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SceneError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def load(path) -> Scene:
    """Read and validate a scene file (see :func:`read_text` for the files refused unread)."""
    return loads(read_text(path))


def _within_depth(value, depth: int) -> bool:
    """Whether the lists and objects inside ``value`` (itself at ``depth``) nest at most to
    :data:`MAX_DEPTH` (recursion at most that deep)."""
    for v in value.values() if type(value) is dict else value:
        t = type(v)
        if t is dict or t is list:
            if depth >= MAX_DEPTH or not _within_depth(v, depth + 1):
                return False
    return True


def _check_depth(doc: Any) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH`, naming the object (when the deep value
    is inside one) and the field (a quick pass first; the walk that finds the field, without
    recursion, only for a file that fails it)."""
    if type(doc) not in (dict, list) or _within_depth(doc, 1):
        return
    stack = [(doc, 1, ())]
    while stack:
        value, depth, parts = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value)
        if depth > MAX_DEPTH:
            raise SceneError(_deep_message(doc, parts))
        for k, v in items:
            if isinstance(v, (dict, list)):
                stack.append((v, depth + 1, parts + (k,) if len(parts) < 8 else parts))


def _deep_message(doc, parts: tuple) -> str:
    where = ""
    if len(parts) >= 2 and parts[0] == "objects" and isinstance(parts[1], int):
        raw = doc["objects"][parts[1]]
        if isinstance(raw, dict) and isinstance(raw.get("id"), str):
            where, parts = f"{_where(raw['id'])}: ", parts[2:]
    path = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in parts).lstrip(".")
    field = f"field {_show(path)}" if path else "top level"
    return (f"{where}{field}: nested deeper than {MAX_DEPTH} levels of lists and objects "
            "(refused: no scene needs that)")


def loads(text: str) -> Scene:
    """Parse and validate scene JSON text."""
    if len(text) > MAX_FILE_BYTES:
        raise SceneError(f"the text is longer than {MAX_FILE_BYTES} characters; scene files "
                         "are refused above that size")
    brackets = text.count("{") + text.count("[")  # an upper bound of the lists and objects
    if brackets > MAX_CONTAINERS:
        raise SceneError(f"the file has {brackets} '{{' and '[' (more than {MAX_CONTAINERS} "
                         "lists and objects are refused: a scene needs about 5 per object)")
    try:
        doc = json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise SceneError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") \
            from None
    except RecursionError:
        raise SceneError(f"not valid JSON: nested too deeply (more than {MAX_DEPTH} levels of "
                         "lists and objects are refused)") from None
    _check_depth(doc)
    return from_document(doc)


def _where(obj_id, kind=None) -> str:
    if obj_id is None:
        return "object"
    return f"object {_show(obj_id)}" + (f" ({kind})" if kind else "")


def _check_finite(value: Any, path: str, where: str) -> None:
    """Refuse NaN, Infinity and overflowing literals anywhere (they parse to non-finite floats)."""
    if isinstance(value, float) and not math.isfinite(value):
        if isinstance(value, _Overflow):
            shown = f"a {value.digits}-digit integer, too large for a double"
        else:
            shown = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
        raise SceneError(f"{where}field {_show(path)}: number must be finite, got {shown} "
                         "(NaN, Infinity and overflowing literals such as 1e999 are refused)")
    if isinstance(value, dict):
        for k, v in value.items():
            _check_finite(v, f"{path}.{k}" if path else str(k), where)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_finite(v, f"{path}[{i}]", where)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _vector3(value, where: str, field: str) -> tuple:
    if not isinstance(value, list) or len(value) != 3 or not all(_is_number(v) for v in value):
        raise SceneError(f"{where}: field {field!r}: must be a list of 3 numbers, "
                         f"got {_brief(value)}")
    return tuple(float(v) for v in value)


def _check_field_kinds(obj: dict, kind: str, where: str) -> None:
    """Wrong kinds of values (a string or ``true`` where a number belongs, wrong lengths)."""
    for name in field_names(kind):
        if name not in obj:
            raise SceneError(f"{where}: field {name!r}: missing (a {kind} needs "
                             f"{', '.join(field_names(kind))})")
        value = obj[name]
        if name in ("vertices", "axes"):
            if not isinstance(value, list) or len(value) != 3:
                raise SceneError(f"{where}: field {name!r}: must be a list of 3 vectors, "
                                 f"got {_brief(value)}")
            for i, row in enumerate(value):
                _vector3(row, where, f"{name}[{i}]")
        elif name in ("radius", "height", "d"):
            if not _is_number(value):
                raise SceneError(f"{where}: field {name!r}: must be a number, "
                                 f"got {_brief(value)}")
        else:
            _vector3(value, where, name)


def _object(raw: Any, index: int, seen: set) -> SceneObject:
    if not isinstance(raw, dict):
        raise SceneError(f"objects[{index}]: must be an object, got {_brief(raw)}")
    obj_id = raw.get("id")
    if "id" not in raw:
        raise SceneError(f"objects[{index}]: field 'id': missing")
    if not isinstance(obj_id, str):
        raise SceneError(f"objects[{index}]: field 'id': must be a string, got {_brief(obj_id)}")
    where = _where(obj_id)
    if obj_id in seen:
        raise SceneError(f"{where}: field 'id': duplicate id {_show(obj_id)}")
    seen.add(obj_id)
    _check_finite(raw, "", f"{where}: ")
    kind = raw.get("type")
    if "type" not in raw:
        raise SceneError(f"{where}: field 'type': missing")
    if not isinstance(kind, str) or kind not in TYPES:
        raise SceneError(f"{where}: field 'type': unknown type {_brief(kind)} "
                         f"(known: {', '.join(TYPES)})")
    where = _where(obj_id, kind)
    _check_field_kinds(raw, kind, where)
    try:
        primitive = from_fields(kind, raw)
    except GeometryError as exc:
        raise SceneError(f"{where}: field {exc.field!r}: {exc.problem}") from None

    label = raw.get("label")
    if label is not None and not isinstance(label, str):
        raise SceneError(f"{where}: field 'label': must be a string, got {_brief(label)}")
    color = raw.get("color")
    if color is not None and not (
        isinstance(color, str)
        or (isinstance(color, list) and len(color) in (3, 4) and all(_is_number(c) for c in color))
    ):
        raise SceneError(f"{where}: field 'color': must be a color name, '#rrggbb' or a list of "
                         f"3 numbers, got {_brief(color)}")
    motion = raw.get("motion")
    if motion is not None:
        motion = _vector3(motion, where, "motion")
    hidden = raw.get("hidden", False)
    if not isinstance(hidden, bool):
        raise SceneError(f"{where}: field 'hidden': must be true or false, got {_brief(hidden)}")
    hollow = raw.get("hollow", False)
    if not isinstance(hollow, bool):
        raise SceneError(f"{where}: field 'hollow': must be true or false, got {_brief(hollow)}")
    if hollow and kind not in HOLLOW_KINDS:
        raise SceneError(f"{where}: field 'hollow': only a sphere or an aabb can be hollow "
                         "(its surface only)")
    known = set(OBJECT_KEYS) | set(field_names(kind)) | {"hidden", "hollow"}
    extra = {k: v for k, v in raw.items() if k not in known}
    return SceneObject(obj_id, primitive, label=label, color=color, motion=motion,
                       hidden=hidden, hollow=hollow, extra=extra)


def from_document(doc: Any) -> Scene:
    """Validate a parsed JSON document and build the :class:`Scene`."""
    if not isinstance(doc, dict):
        raise SceneError(f"top level: must be a JSON object, got {type(doc).__name__}")
    fmt = doc.get("format")
    if fmt != FORMAT:
        raise SceneError(f"field 'format': must be {FORMAT!r}, got {_brief(fmt)}")
    version = doc.get("version")
    if not (type(version) is int and version == VERSION):
        raise SceneError(f"field 'version': must be the integer 1, got {_brief(version)}")
    objects_raw = doc.get("objects")
    if "objects" not in doc:
        raise SceneError("field 'objects': missing")
    if not isinstance(objects_raw, list):
        raise SceneError(f"field 'objects': must be a list, got {type(objects_raw).__name__}")
    name = doc.get("name", "Untitled")
    if not isinstance(name, str):
        raise SceneError(f"field 'name': must be a string, got {_brief(name)}")
    seen: set = set()
    objects = [_object(raw, i, seen) for i, raw in enumerate(objects_raw)]

    queries = None
    triples: list = []
    if "queries" in doc:
        raw_queries = doc["queries"]
        if not isinstance(raw_queries, list):
            raise SceneError(f"field 'queries': must be a list, got {_brief(raw_queries)}")
        queries = []
        kinds = {o.id: o.kind for o in objects}
        for i, q in enumerate(raw_queries):
            if type(q) is dict and len(q) == 2:  # the common {"a": id, "b": id}, at once
                a, b = q.get("a"), q.get("b")
                if type(a) is str and type(b) is str and a != b and a in seen and b in seen:
                    queries.append((a, b))
                    continue
            if not isinstance(q, dict) or "a" not in q or "b" not in q:
                raise SceneError(f"queries[{i}]: must be an object with 'a' and 'b', "
                                 f"got {_brief(q)}")
            _check_finite(q, "", f"queries[{i}]: ")  # a NaN in an extra key is refused too
            keys = ("a", "b", "c") if "c" in q else ("a", "b")
            for key in keys:
                ref = q[key]
                if not isinstance(ref, str):
                    raise SceneError(f"queries[{i}]: field {key!r}: must be an object id "
                                     f"(a string), got {_brief(ref)}")
                if ref not in seen:
                    raise SceneError(f"queries[{i}]: field {key!r}: no object with id "
                                     f"{_show(ref)}")
            a, b = q["a"], q["b"]
            if len(keys) == 3:  # three planes (A.11): a project extension, docs/scene-v1.md
                ids = (a, b, q["c"])
                if len(set(ids)) < 3:
                    raise SceneError(f"queries[{i}]: 'a', 'b' and 'c' must name three different "
                                     f"planes, got {_brief(list(ids))}")
                for key, ref in zip(keys, ids):
                    if kinds[ref] != "plane":
                        raise SceneError(f"queries[{i}]: field {key!r}: a three-object query "
                                         f"is three planes; {_show(ref)} is a {kinds[ref]}")
                triples.append((len(queries) + len(triples), ids))
                continue
            if a == b:
                raise SceneError(f"queries[{i}]: 'a' and 'b' both name {_show(a)}: a query "
                                 "needs two different objects")
            queries.append((a, b))
    view = doc.get("view", {})
    if not isinstance(view, dict):
        raise SceneError(f"field 'view': must be an object, got {_brief(view)}")
    _check_finite(view, "view", "")
    extra = {k: v for k, v in doc.items()
             if k not in ("format", "version", "name", "objects", "queries", "view")}
    _check_finite(extra, "", "")
    if LESSON_KEY in extra:  # a lesson file (project extension): its steps are checked too
        from explorer.model.lesson import LessonError, parse

        try:
            parse(extra[LESSON_KEY], seen)
        except LessonError as exc:
            raise SceneError(str(exc)) from None
    return Scene(name, objects, queries, view, extra, triples)


# ----------------------------------------------------------------------------- saving


def object_to_dict(obj: SceneObject) -> dict:
    out: dict = {"id": obj.id, "type": obj.kind}
    out.update(obj.primitive.to_fields())
    if obj.label is not None:
        out["label"] = obj.label
    if obj.color is not None:
        out["color"] = obj.color
    if obj.motion is not None:
        out["motion"] = [float(m) for m in obj.motion]
    if obj.hidden:
        out["hidden"] = True
    if obj.hollow:
        out["hollow"] = True
    out.update(obj.extra)
    return out


def to_document(scene: Scene) -> dict:
    doc: dict = {"format": FORMAT, "version": VERSION, "name": scene.name,
                 "objects": [object_to_dict(o) for o in scene.objects]}
    if scene.queries is not None:
        doc["queries"] = [{"a": a, "b": b} for a, b in scene.queries]
        for pos, ids in sorted(scene.triples):
            doc["queries"].insert(min(pos, len(doc["queries"])), dict(zip("abc", ids)))
    doc["view"] = scene.view
    doc.update(scene.extra)
    return doc


_NUMBER_LIST = re.compile(r"\[\s*(-?[0-9][-+0-9.eE]*(?:,\s*-?[0-9][-+0-9.eE]*)*)\s*\]")


def dumps(scene: Scene) -> str:
    """The scene as JSON text: indented objects, each vector of numbers on one line."""
    text = json.dumps(to_document(scene), indent=2, allow_nan=False)
    return _NUMBER_LIST.sub(lambda m: "[" + re.sub(r",\s*", ", ", m.group(1)) + "]", text) + "\n"


def save(scene: Scene, path) -> None:
    """Write ``scene`` to ``path`` atomically (:func:`explorer.model.documents.atomic_write`): a
    temporary file in the same folder, flushed to disk, then renamed over the target; a symlink
    keeps pointing at the saved file, the file's mode is kept, a read-only file is refused. On
    any error (:class:`~explorer.model.documents.SaveError`) the old file is left as it was."""
    from explorer.model.documents import save_scene  # documents imports this module

    save_scene(scene, path)
