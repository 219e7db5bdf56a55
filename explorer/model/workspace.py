"""What the window shows, as a model with signals and no Qt (napari's ``ViewerModel`` idea).

:class:`Workspace` holds the view state next to the scene and its undo stack: the selected
object, the chosen pair, the draw scope (which pairs' answers are drawn), the overlay kinds
switched on, the results panel's mode and the time ``t``. Widgets and the viewport subscribe to
its signals; a test drives it without a display. The pair policies (which pairs are drawn,
listed, explained) are plain functions of ``(scene, workspace)`` below.

Examples
--------
>>> from algorithms import Point
>>> from explorer.model.scene import Scene
>>> scene = Scene()
>>> for x in range(3):
...     _ = scene.add(Point((x, 0, 0)), id=f"p{x}")
>>> ws = Workspace(scene)
>>> seen = []
>>> _ = ws.pair_changed.connect(lambda a, b: seen.append((a, b)))
>>> ws.set_pair("p0", "p2"); seen
[('p0', 'p2')]
>>> overlay_pairs(scene, ws)  # every query pair (the scene has no queries: all pairs)
[('p0', 'p1'), ('p0', 'p2'), ('p1', 'p2')]
>>> ws.set_scope("selected"); ws.select("p1"); overlay_pairs(scene, ws)
[('p0', 'p1'), ('p1', 'p2'), ('p0', 'p2')]
>>> ws.set_scope("pair"); overlay_pairs(scene, ws)
[('p0', 'p2')]
"""

from __future__ import annotations

from typing import Optional

from explorer.model.scene import Scene, Signal

#: overlay kinds (explorer.render.overlays.KINDS keys) on when a workspace starts
#: (``minkowski`` draws only for a moving pair in focus: nothing in a scene that does not move)
DEFAULT_OVERLAYS = ("closest", "hits", "intersects", "separating_axis", "side", "toi", "motion",
                    "minkowski")
#: draw scopes: every query pair, the selection's pairs, only the chosen pair
SCOPES = ("queries", "selected", "pair")
#: results panel modes: the selection against every other, the chosen pair, the query pairs
RESULTS_MODES = ("selected", "pair", "queries")
#: a scene with no ``queries`` and more pairs than this draws only the selection's pairs
MAX_IMPLICIT_PAIRS = 10
#: the most pairs whose answers are drawn at once (the chosen pair comes on top): a selected
#: object of a 400-object scene has 399 pairs, and drawing them all took 37 s a selection
MAX_DRAWN_PAIRS = 60
#: kinds whose pairs the separating-axis inspector teaches
SAT_KINDS = frozenset({"aabb", "obb", "triangle", "cylinder"})
#: pairs of these kinds get the st-plane diagram
LINEAR_KINDS = frozenset({"segment", "ray", "line"})


class Workspace:
    """The view state of one window (see the module text). Every setter emits its signal only
    when the value changes."""

    def __init__(self, scene: Optional[Scene] = None):
        self.scene = scene if scene is not None else Scene()
        self.selected_id: Optional[str] = None
        self.pair: Optional[tuple[str, str]] = None
        self.scope = "queries"
        self.overlays: set[str] = set(DEFAULT_OVERLAYS)
        self.results_mode = "selected"
        self.time = 0.0
        self.selection_changed = Signal()   # (obj_id or None)
        self.pair_changed = Signal()        # (a or None, b or None)
        self.scope_changed = Signal()       # (scope)
        self.overlays_changed = Signal()    # (frozenset of kinds)
        self.results_mode_changed = Signal()  # (mode)
        self.time_changed = Signal()        # (t)

    # ------------------------------------------------------------------ setters
    def set_scene(self, scene: Scene, pair: Optional[tuple[str, str]] = None) -> None:
        """A new document: nothing selected, ``pair`` chosen, time back to 0."""
        self.scene = scene
        self.select(None)
        self.set_pair(*(pair or (None, None)))
        self.set_time(0.0)

    def select(self, obj_id: Optional[str]) -> None:
        if obj_id is not None and obj_id not in self.scene:
            obj_id = None
        if obj_id != self.selected_id:
            self.selected_id = obj_id
            self.selection_changed.emit(obj_id)

    def set_pair(self, a: Optional[str], b: Optional[str]) -> None:
        """Choose the pair ``(a, b)``; ``None``, ``""``, a missing id or ``a == b`` clears it."""
        a, b = a or None, b or None
        pair = (a, b) if a and b and a != b and a in self.scene and b in self.scene else None
        if pair != self.pair:
            self.pair = pair
            self.pair_changed.emit(*(pair or (None, None)))

    def set_scope(self, scope: str) -> None:
        if scope not in SCOPES:
            raise ValueError(f"scope: one of {SCOPES}, got {scope!r}")
        if scope != self.scope:
            self.scope = scope
            self.scope_changed.emit(scope)

    def set_overlay(self, kind: str, on: bool) -> None:
        before = set(self.overlays)
        (self.overlays.add if on else self.overlays.discard)(kind)
        if self.overlays != before:
            self.overlays_changed.emit(frozenset(self.overlays))

    def set_results_mode(self, mode: str) -> None:
        if mode not in RESULTS_MODES:
            raise ValueError(f"results mode: one of {RESULTS_MODES}, got {mode!r}")
        if mode != self.results_mode:
            self.results_mode = mode
            self.results_mode_changed.emit(mode)

    def set_time(self, t: float) -> None:
        t = min(1.0, max(0.0, float(t)))
        if t != self.time:
            self.time = t
            self.time_changed.emit(t)

    def forget(self, obj_id: str) -> None:
        """``obj_id`` left the scene: drop it from the selection and the pair."""
        if self.selected_id == obj_id:
            self.select(None)
        if self.pair and obj_id in self.pair:
            self.set_pair(None, None)


# ---------------------------------------------------------------------- the pair policies


def chosen_pair(scene: Scene, ws: Workspace) -> Optional[tuple[str, str]]:
    """The chosen pair when both objects still exist."""
    p = ws.pair
    return p if p and p[0] in scene and p[1] in scene else None


def current_pair(scene: Scene, ws: Workspace) -> tuple[Optional[str], Optional[str]]:
    """The pair the panels show: the chosen pair, else ``(selected object, None)``."""
    return chosen_pair(scene, ws) or (ws.selected_id, None)


def pairs_of(scene: Scene, obj_id: str) -> list[tuple[str, str]]:
    """``obj_id`` against every other object, each pair in the scene's order (a query pair
    keeps the query's order)."""
    ids = scene.ids()
    i = ids.index(obj_id)
    query_pairs = set(scene.pairs())
    out = []
    for j, other in enumerate(ids):
        if other == obj_id:
            continue
        pair = (obj_id, other) if i < j else (other, obj_id)
        if pair[::-1] in query_pairs:
            pair = pair[::-1]
        out.append(pair)
    return out


def _with_chosen(scene: Scene, ws: Workspace, pairs: list) -> list:
    chosen = chosen_pair(scene, ws)
    if chosen and chosen not in pairs and chosen[::-1] not in pairs:
        pairs = [*pairs, chosen]
    return pairs


def overlay_pairs(scene: Scene, ws: Workspace) -> list[tuple[str, str]]:
    """The pairs whose answers are drawn (View > Answers for ...): at most
    :data:`MAX_DRAWN_PAIRS` of them in scene order, and the chosen pair always."""
    selected = ws.selected_id if ws.selected_id in scene else None
    pairs: list[tuple[str, str]] = []
    if ws.scope == "queries":
        pairs = scene.pairs()
        if scene.queries is None and len(pairs) > MAX_IMPLICIT_PAIRS:
            # every pair of a crowded scene would bury it in labels: the selection's pairs
            pairs = pairs_of(scene, selected) if selected else []
    elif ws.scope == "selected" and selected:
        pairs = pairs_of(scene, selected)
    pairs = pairs[:MAX_DRAWN_PAIRS]
    ids = set(scene.ids())
    return [p for p in _with_chosen(scene, ws, pairs) if p[0] in ids and p[1] in ids]


def focus_pairs(scene: Scene, ws: Workspace) -> set:
    """Pairs that get the roomy overlays (one separating axis): the chosen pair, else the
    selected object's first pair, else the scene's first pair."""
    chosen = chosen_pair(scene, ws)
    if chosen:
        return {chosen}
    if ws.selected_id in scene:
        return set(pairs_of(scene, ws.selected_id)[:1])
    return set(scene.pairs()[:1])


def results_pairs(scene: Scene, ws: Workspace) -> list[tuple[str, str]]:
    """The rows of the results panel for its mode; the chosen pair is always listed."""
    mode = ws.results_mode
    if mode == "pair":
        chosen = chosen_pair(scene, ws)
        return [chosen] if chosen else []
    if mode == "queries":
        pairs = scene.pairs()
    elif ws.selected_id in scene:
        pairs = pairs_of(scene, ws.selected_id)
    else:  # nothing selected: the scene's pairs
        pairs = scene.pairs()
    return _with_chosen(scene, ws, pairs)


def panels_for(scene: Scene, pair) -> list[str]:
    """Titles of the docks that teach the most about ``pair``: the st-plane for two linear
    components (else the results table), the time line for a moving pair, the
    separating-axis inspector for box, triangle and cylinder pairs, else the explanation."""
    a, b = pair if pair else (None, None)
    if not (a and b and a in scene and b in scene):
        return []
    oa, ob = scene[a], scene[b]
    kinds = {oa.kind, ob.kind}
    top = "st-plane" if kinds <= LINEAR_KINDS else "Results"
    if oa.motion is not None or ob.motion is not None:
        bottom = "Time line"
    elif kinds <= SAT_KINDS:
        bottom = "Separating axes"
    else:
        bottom = "Explain"
    return [top, bottom]
