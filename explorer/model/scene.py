"""The scene model: objects with ids, labels, colors and motions; the query list; change events.

No Qt here (a test checks it): the Qt panels and the PyVista views subscribe to a
:class:`Scene`'s :class:`Signal` attributes, as napari's layers do, and the model knows nothing
of them.

Events (each a :class:`Signal`; callbacks get the arguments shown):

* ``object_added(obj)``, ``object_removed(obj)``
* ``object_changed(obj, fields)``: ``fields`` is the set of changed attribute names
  (``"primitive"``, ``"label"``, ``"color"``, ``"motion"``, ``"hidden"``)
* ``queries_changed()``
* ``reset()``: the whole scene was replaced (opened a file, New)

Examples
--------
>>> from algorithms import Sphere
>>> scene = Scene()
>>> seen = []
>>> _ = scene.object_added.connect(lambda obj: seen.append(obj.id))
>>> _ = scene.add(Sphere((0, 0, 0), 1))
>>> seen
['sphere1']
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Optional

from algorithms import PairAnswer, Primitive, evaluate_pair
from algorithms.report import result_json


class Signal:
    """A minimal observer list: ``connect(callback)``, ``disconnect(callback)``, ``emit(*args)``.

    A callback that raises does not stop the others; the first exception is re-raised after
    every callback ran, so a broken view cannot silently corrupt the model's other observers.
    """

    def __init__(self):
        self._callbacks: list[Callable] = []

    def connect(self, callback: Callable) -> Callable:
        if callback not in self._callbacks:
            self._callbacks.append(callback)
        return callback

    def disconnect(self, callback: Callable) -> None:
        if callback in self._callbacks:
            self._callbacks.remove(callback)

    def emit(self, *args) -> None:
        error = None
        for callback in list(self._callbacks):
            try:
                callback(*args)
            except Exception as exc:  # noqa: BLE001 - re-raised below
                error = error or exc
        if error is not None:
            raise error


@dataclass(frozen=True)
class SceneObject:
    """One object of a scene.

    ``extra`` keeps the unknown keys read from a file, so they are written back on save.
    ``hidden`` is the explorer's own display flag (saved as ``"hidden": true``).
    """

    id: str
    primitive: Primitive
    label: Optional[str] = None
    color: Optional[object] = None
    motion: Optional[tuple] = None
    hidden: bool = False
    #: a sphere or an aabb that is its surface only (``"hollow": true``, GTCG §11.12.8)
    hollow: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.primitive.kind

    @property
    def name(self) -> str:
        """What the UI shows: the label, or the id."""
        return self.label or self.id

    def at_time(self, t: float) -> Primitive:
        """The primitive translated by ``t * motion`` (itself when it does not move)."""
        if self.motion is None or t == 0:
            return self.primitive
        return self.primitive.translated(tuple(t * m for m in self.motion))


class Scene:
    """An ordered collection of :class:`SceneObject` plus the queries and the view state."""

    def __init__(self, name: str = "Untitled", objects: Iterable[SceneObject] = (),
                 queries: Optional[list] = None, view: Optional[dict] = None,
                 extra: Optional[dict] = None, triples: Optional[list] = None):
        self.name = name
        self._objects: dict[str, SceneObject] = {}
        for obj in objects:
            if obj.id in self._objects:
                raise ValueError(f"duplicate id {obj.id!r}")
            self._objects[obj.id] = obj
        #: explicit query pairs ``[(a_id, b_id), ...]`` or ``None`` for every unordered pair
        self.queries: Optional[list[tuple[str, str]]] = queries
        #: three-planes queries ``[(position, (a, b, c)), ...]`` (a project extension,
        #: docs/scene-v1.md): ``position`` is the query's index in the file's query list
        self.triples: list[tuple[int, tuple[str, str, str]]] = list(triples or [])
        self.view: dict = dict(view or {})
        #: unknown top-level keys, kept for the round trip
        self.extra: dict = dict(extra or {})
        self.object_added = Signal()
        self.object_removed = Signal()
        self.object_changed = Signal()
        self.queries_changed = Signal()
        self.reset = Signal()

    # ------------------------------------------------------------------ reading
    @property
    def objects(self) -> list[SceneObject]:
        return list(self._objects.values())

    def __len__(self) -> int:
        return len(self._objects)

    def __contains__(self, object_id: str) -> bool:
        return object_id in self._objects

    def __getitem__(self, object_id: str) -> SceneObject:
        return self._objects[object_id]

    def ids(self) -> list[str]:
        return list(self._objects)

    def pairs(self) -> list[tuple[str, str]]:
        """The query pairs: the explicit list, or every unordered pair in file order."""
        if self.queries is not None:
            objects = self._objects
            return [(a, b) for a, b in self.queries if a in objects and b in objects]
        return list(itertools.combinations(self._objects, 2))

    def answer(self, a_id: str, b_id: str) -> PairAnswer:
        """The typed answer for one pair (never raises for a valid scene)."""
        a, b = self._objects[a_id], self._objects[b_id]
        return evaluate_pair(a.primitive, b.primitive, a.motion, b.motion, id_a=a_id, id_b=b_id,
                             hollow_a=a.hollow, hollow_b=b.hollow)

    def answers(self) -> list[PairAnswer]:
        """One typed answer per query pair, in order (three-planes queries are not pairs: see
        :meth:`evaluate`)."""
        return [self.answer(a, b) for a, b in self.pairs()]

    def evaluate_pair(self, a_id: str, b_id: str) -> dict:
        """The ``explorer eval`` result object for one pair (scene-v1)."""
        return result_json(self.answer(a_id, b_id))

    def evaluate_query(self, *ids: str) -> dict:
        """The result of a pair query ``(a, b)`` or a three-planes query ``(a, b, c)``."""
        if len(ids) == 2:
            return self.evaluate_pair(*ids)
        from algorithms.extras.planes import three_planes_result

        return three_planes_result(*(self._objects[i].primitive for i in ids), ids=ids)

    def query_list(self) -> list[tuple]:
        """Every query in file order: the pairs of :meth:`pairs` with the three-planes queries
        put back at their places."""
        out: list[tuple] = list(self.pairs())
        for pos, ids in sorted(self.triples):
            if all(i in self for i in ids):
                out.insert(min(pos, len(out)), tuple(ids))
        return out

    def evaluate(self) -> list[dict]:
        """One result object per query, in order (scene-v1 ``explorer eval``)."""
        return [self.evaluate_query(*q) for q in self.query_list()]

    def new_id(self, kind: str) -> str:
        """A fresh id such as ``sphere3``."""
        for n in itertools.count(1):
            candidate = f"{kind}{n}"
            if candidate not in self._objects:
                return candidate
        raise AssertionError("unreachable")

    def copy(self) -> "Scene":
        """A deep copy with no subscribers (for undo snapshots and saving)."""
        return Scene(self.name, [replace(o, extra=copy.deepcopy(o.extra)) for o in self.objects],
                     None if self.queries is None else list(self.queries),
                     copy.deepcopy(self.view), copy.deepcopy(self.extra), list(self.triples))

    # ------------------------------------------------------------------ editing
    def add(self, primitive_or_object, **attrs) -> SceneObject:
        """Add a primitive (a fresh id is made) or a :class:`SceneObject`; returns the object."""
        if isinstance(primitive_or_object, SceneObject):
            obj = primitive_or_object
        else:
            obj = SceneObject(attrs.pop("id", None) or self.new_id(primitive_or_object.kind),
                              primitive_or_object, **attrs)
        if obj.id in self._objects:
            raise ValueError(f"duplicate id {obj.id!r}")
        self._objects[obj.id] = obj
        self.object_added.emit(obj)
        return obj

    def insert(self, index: int, obj: SceneObject) -> SceneObject:
        """Add ``obj`` at position ``index`` (undo of a removal puts it back where it was)."""
        if obj.id in self._objects:
            raise ValueError(f"duplicate id {obj.id!r}")
        items = list(self._objects.items())
        items.insert(index, (obj.id, obj))
        self._objects = dict(items)
        self.object_added.emit(obj)
        return obj

    def index(self, object_id: str) -> int:
        return list(self._objects).index(object_id)

    def remove(self, object_id: str) -> SceneObject:
        obj = self._objects.pop(object_id)
        if self.queries is not None:
            before = len(self.queries)
            self.queries = [(a, b) for a, b in self.queries if object_id not in (a, b)]
            if len(self.queries) != before:
                self.queries_changed.emit()
        self.triples = [(p, ids) for p, ids in self.triples if object_id not in ids]
        self.object_removed.emit(obj)
        return obj

    def update(self, object_id: str, **changes) -> SceneObject:
        """Replace fields of an object (``primitive``, ``label``, ``color``, ``motion``,
        ``hidden``) and emit ``object_changed`` with the names that really changed."""
        old = self._objects[object_id]
        if "id" in changes:
            raise ValueError("use rename() to change an id")
        new = replace(old, **changes)
        changed = {k for k in changes if getattr(old, k) != getattr(new, k)}
        if not changed:
            return old
        self._objects[object_id] = new
        self.object_changed.emit(new, changed)
        return new

    def set_queries(self, queries: Optional[list[tuple[str, str]]]) -> None:
        self.queries = None if queries is None else list(queries)
        self.queries_changed.emit()

    def replace_all(self, other: "Scene") -> None:
        """Become a copy of ``other`` (open a file, New, undo of a big change); emits ``reset``."""
        self.name = other.name
        self._objects = dict(other._objects)
        self.queries = None if other.queries is None else list(other.queries)
        self.triples = list(other.triples)
        self.view = copy.deepcopy(other.view)
        self.extra = copy.deepcopy(other.extra)
        self.reset.emit()
