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
import tempfile
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


class SceneError(ValueError):
    """A scene file breaks a rule of scene-v1. ``str(error)`` is the one-line message."""


# ----------------------------------------------------------------------------- loading


def load(path) -> Scene:
    """Read and validate a scene file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SceneError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SceneError(f"{path}: is a folder, not a scene file") from None
    except UnicodeDecodeError as exc:
        raise SceneError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise SceneError(f"{path}: cannot read ({exc.strerror})") from None
    return loads(text)


def loads(text: str) -> Scene:
    """Parse and validate scene JSON text."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SceneError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") \
            from None
    except RecursionError:
        raise SceneError("not valid JSON: nested too deeply") from None
    return from_document(doc)


def _where(obj_id, kind=None) -> str:
    if obj_id is None:
        return "object"
    return f"object {obj_id!r}" + (f" ({kind})" if kind else "")


def _check_finite(value: Any, path: str, where: str) -> None:
    """Refuse NaN, Infinity and overflowing literals anywhere (they parse to non-finite floats)."""
    if isinstance(value, float) and not math.isfinite(value):
        shown = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
        raise SceneError(f"{where}field {path!r}: number must be finite, got {shown} "
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
                         f"got {json.dumps(value)}")
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
                                 f"got {json.dumps(value)}")
            for i, row in enumerate(value):
                _vector3(row, where, f"{name}[{i}]")
        elif name in ("radius", "height", "d"):
            if not _is_number(value):
                raise SceneError(f"{where}: field {name!r}: must be a number, "
                                 f"got {json.dumps(value)}")
        else:
            _vector3(value, where, name)


def _object(raw: Any, index: int, seen: set) -> SceneObject:
    if not isinstance(raw, dict):
        raise SceneError(f"objects[{index}]: must be an object, got {json.dumps(raw)[:60]}")
    obj_id = raw.get("id")
    if "id" not in raw:
        raise SceneError(f"objects[{index}]: field 'id': missing")
    if not isinstance(obj_id, str):
        raise SceneError(f"objects[{index}]: field 'id': must be a string, got {json.dumps(obj_id)}")
    where = _where(obj_id)
    if obj_id in seen:
        raise SceneError(f"{where}: field 'id': duplicate id {obj_id!r}")
    seen.add(obj_id)
    _check_finite(raw, "", f"{where}: ")
    kind = raw.get("type")
    if "type" not in raw:
        raise SceneError(f"{where}: field 'type': missing")
    if not isinstance(kind, str) or kind not in TYPES:
        raise SceneError(f"{where}: field 'type': unknown type {json.dumps(kind)} "
                         f"(known: {', '.join(TYPES)})")
    where = _where(obj_id, kind)
    _check_field_kinds(raw, kind, where)
    try:
        primitive = from_fields(kind, raw)
    except GeometryError as exc:
        raise SceneError(f"{where}: field {exc.field!r}: {exc.problem}") from None

    label = raw.get("label")
    if label is not None and not isinstance(label, str):
        raise SceneError(f"{where}: field 'label': must be a string, got {json.dumps(label)}")
    color = raw.get("color")
    if color is not None and not (
        isinstance(color, str)
        or (isinstance(color, list) and len(color) in (3, 4) and all(_is_number(c) for c in color))
    ):
        raise SceneError(f"{where}: field 'color': must be a color name, '#rrggbb' or a list of "
                         f"3 numbers, got {json.dumps(color)}")
    motion = raw.get("motion")
    if motion is not None:
        motion = _vector3(motion, where, "motion")
    hidden = raw.get("hidden", False)
    if not isinstance(hidden, bool):
        raise SceneError(f"{where}: field 'hidden': must be true or false, got {json.dumps(hidden)}")
    hollow = raw.get("hollow", False)
    if not isinstance(hollow, bool):
        raise SceneError(f"{where}: field 'hollow': must be true or false, got {json.dumps(hollow)}")
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
        raise SceneError(f"field 'format': must be {FORMAT!r}, got {json.dumps(fmt)}")
    version = doc.get("version")
    if not (type(version) is int and version == VERSION):
        raise SceneError(f"field 'version': must be the integer 1, got {json.dumps(version)}")
    objects_raw = doc.get("objects")
    if "objects" not in doc:
        raise SceneError("field 'objects': missing")
    if not isinstance(objects_raw, list):
        raise SceneError(f"field 'objects': must be a list, got {type(objects_raw).__name__}")
    name = doc.get("name", "Untitled")
    if not isinstance(name, str):
        raise SceneError(f"field 'name': must be a string, got {json.dumps(name)}")
    seen: set = set()
    objects = [_object(raw, i, seen) for i, raw in enumerate(objects_raw)]

    queries = None
    triples: list = []
    if "queries" in doc:
        raw_queries = doc["queries"]
        if not isinstance(raw_queries, list):
            raise SceneError(f"field 'queries': must be a list, got {json.dumps(raw_queries)[:60]}")
        queries = []
        kinds = {o.id: o.kind for o in objects}
        for i, q in enumerate(raw_queries):
            if not isinstance(q, dict) or "a" not in q or "b" not in q:
                raise SceneError(f"queries[{i}]: must be an object with 'a' and 'b', "
                                 f"got {json.dumps(q)[:60]}")
            keys = ("a", "b", "c") if "c" in q else ("a", "b")
            for key in keys:
                ref = q[key]
                if not isinstance(ref, str):
                    raise SceneError(f"queries[{i}]: field {key!r}: must be an object id "
                                     f"(a string), got {json.dumps(ref)}")
                if ref not in seen:
                    raise SceneError(f"queries[{i}]: field {key!r}: no object with id {ref!r}")
            a, b = q["a"], q["b"]
            if len(keys) == 3:  # three planes (A.11): a project extension, docs/scene-v1.md
                ids = (a, b, q["c"])
                if len(set(ids)) < 3:
                    raise SceneError(f"queries[{i}]: 'a', 'b' and 'c' must name three different "
                                     f"planes, got {json.dumps(list(ids))}")
                for key, ref in zip(keys, ids):
                    if kinds[ref] != "plane":
                        raise SceneError(f"queries[{i}]: field {key!r}: a three-object query "
                                         f"is three planes; {ref!r} is a {kinds[ref]}")
                triples.append((len(queries) + len(triples), ids))
                continue
            if a == b:
                raise SceneError(f"queries[{i}]: 'a' and 'b' both name {a!r}: a query needs two "
                                 "different objects")
            queries.append((a, b))
    view = doc.get("view", {})
    if not isinstance(view, dict):
        raise SceneError(f"field 'view': must be an object, got {json.dumps(view)[:60]}")
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
    """Write ``scene`` to ``path`` atomically: a temporary file in the same folder, flushed to
    disk, then renamed over the target. On any error the old file is left as it was."""
    path = Path(path)
    text = dumps(scene)  # serialise first: a failure here never touches the disk
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
