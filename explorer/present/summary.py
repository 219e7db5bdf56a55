"""A pair's answer in plain words, for a student (no Qt, no VTK): what the typed
:class:`~algorithms.answer.PairAnswer` means and which methods gave it. The results panel shows
it under its table."""

from __future__ import annotations

import html

from algorithms.answer import PairAnswer


def _v(p) -> str:
    return "(" + ", ".join(f"{float(c):.3g}" for c in p) + ")"


def _name(scene, obj_id: str) -> str:
    obj = scene[obj_id] if scene is not None and obj_id in scene else None
    label = obj.label if obj is not None and obj.label else obj_id
    return html.escape(label if label == obj_id else f"{label} ({obj_id})")


def method_names(methods) -> list[str]:
    """The distinct methods of an answer (``PairAnswer.methods``, in the order they ran), a
    method already contained in an earlier one not repeated. Method names may themselves hold
    ``"; "`` (Arvo's does): they are never split."""
    out: list[str] = []
    for part in methods or ():
        part = part.strip()
        if part and not any(part in seen for seen in out):
            out.append(part)
    return out


def summary_html(r: PairAnswer, scene=None) -> str:
    """The answer of one pair in words (rich text), from its typed answer."""
    a, b = _name(scene, r.a), _name(scene, r.b)
    kinds = html.escape(r.pair or "")
    lines = [f"<b>{a} – {b}</b> <span style='color:#666'>({kinds})</span>"]
    if r.errors:
        lines.append(f"<span style='color:#c62828'><b>The query failed:</b> "
                     f"{html.escape(r.error)}</span>")
    items = []
    inter, dist, closest = r.intersects, r.distance, r.closest
    if inter is True:
        items.append("<b style='color:#c62828'>They intersect</b> (distance 0)"
                     + (f"; a common point is {_v(closest[0])}" if closest else "") + ".")
    elif inter is False:
        txt = "<b>They do not intersect.</b>"
        if dist is not None:
            txt += f" Distance <b>{dist:.4g}</b>"
            if closest:
                txt += f", from {_v(closest[0])} on {a} to {_v(closest[1])} on {b}"
            txt += "."
        items.append(txt)
    hit_list = r.records.hits.hits if r.records.hits is not None else ()
    if r.first_t is not None:
        txt = f"{a} first touches {b} at <b>t = {r.first_t:.4g}</b>"
        if hit_list:
            txt += ": " + ", ".join(f"{h.kind or 'hit'} at t = {h.t:.4g}, point "
                                    f"{_v(h.point)}" + (f", normal {_v(h.normal)}"
                                                        if h.normal is not None else "")
                                    for h in hit_list if h.point is not None)
        items.append(txt + ".")
    elif r.kinds[0] in ("segment", "ray", "line") and inter is False:
        items.append(f"{a} never touches {b} (no hit, first_t is none).")
    axis = r.separating_axis
    if axis is not None:
        sep = r.records.separation
        chosen = sep.trace.get("chosen") if sep is not None else None
        which = f" ({html.escape(str(chosen))})" if chosen else ""
        items.append(f"Separating axis {_v(axis)}{which}: the two shapes' projections on it "
                     "do not overlap (the gap shows in the view).")
    side = r.side
    if side is not None:
        items.append({1: "The object is entirely in <b>front</b> of the plane (n·x &gt; d).",
                      -1: "The object is entirely <b>behind</b> the plane (n·x &lt; d).",
                      0: "The object <b>touches or straddles</b> the plane."}.get(side,
                                                                                  f"side {side}"))
    toi = r.toi
    moving = scene is not None and any(
        i in scene and scene[i].motion is not None for i in r.ids)
    if toi is not None:
        items.append(f"Moving as given, they first touch at <b>time t = {toi:.4g}</b> "
                     "(t from 0 to 1; see the Time line panel).")
    elif moving:
        items.append("Moving as given, they never touch for t in [0, 1].")
    if items:
        lines.append("<ul style='margin-left:-20px'>" + "".join(f"<li>{i}</li>" for i in items)
                     + "</ul>")
    methods = method_names(r.methods)
    if methods:
        lines.append("<b>Method:</b> " + "<br>".join(html.escape(m) for m in methods))
    return "".join(f"<p>{x}</p>" if not x.startswith("<ul") else x for x in lines)


