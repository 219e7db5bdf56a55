"""The answers as a table (Qt-free, VTK-free): one row per query pair, the scene-v1 keys as
columns, numbers rounded for reading, read from the typed
:class:`~algorithms.answer.PairAnswer`. The HTML export's panel, the Markdown export and the
notebook's table (:func:`explorer.show`) are drawn from it."""

from __future__ import annotations

from typing import Sequence

from algorithms.answer import PairAnswer
from explorer.present.summary import method_names

#: the columns after the pair, in the spec's order
ROW_KEYS = ("intersects", "distance", "first_t", "separating_axis", "side", "toi", "method")


def _num(v) -> str:
    return f"{float(v):.6g}" if not isinstance(v, int) or isinstance(v, bool) else str(v)


def _text(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        if v and isinstance(v[0], (list, tuple)):  # a pair of points
            return " – ".join(_text(p) for p in v)
        return "(" + ", ".join(_num(x) for x in v) + ")"
    return _num(v)


def cell(answer: PairAnswer, key: str) -> str:
    """One cell: ``""`` for no answer, vectors as ``(x, y, z)``, floats to 6 digits, the
    methods joined by ``"; "``."""
    if key == "method":
        return "; ".join(method_names(answer.methods))
    return _text(getattr(answer, key))


def rows(answers: Sequence[PairAnswer]) -> list[dict]:
    """``[{"pair": "A-B", "intersects": "no", "distance": "2", ...}]``."""
    return [{"pair": f"{r.a}-{r.b}", **{k: cell(r, k) for k in ROW_KEYS}} for r in answers]


def markdown_table(answers: Sequence[PairAnswer]) -> str:
    """The table in Markdown (GitHub's pipe tables)."""
    cols = ("pair", *ROW_KEYS)
    lines = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    for row in rows(answers):
        lines.append("| " + " | ".join(row[c].replace("|", "\\|") for c in cols) + " |")
    return "\n".join(lines) + "\n"
