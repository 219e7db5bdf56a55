"""The answers as a table (Qt-free, VTK-free): one row per query pair, the scene-v1 keys as
columns, numbers rounded for reading. The HTML export's panel and the notebook's table
(:func:`explorer.show`) are drawn from it."""

from __future__ import annotations

from typing import Sequence

#: the columns after the pair, in the spec's order
ROW_KEYS = ("intersects", "distance", "first_t", "separating_axis", "side", "toi", "method")


def _num(v) -> str:
    return f"{v:.6g}" if isinstance(v, float) else str(v)


def cell(result: dict, key: str) -> str:
    """One cell: ``""`` for ``null``, vectors as ``(x, y, z)``, floats to 6 digits."""
    v = result.get(key)
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        if v and isinstance(v[0], (list, tuple)):  # a pair of points
            return " – ".join(cell({"v": p}, "v") for p in v)
        return "(" + ", ".join(_num(x) for x in v) + ")"
    return _num(v)


def rows(results: Sequence[dict]) -> list[dict]:
    """``[{"pair": "A-B", "intersects": "no", "distance": "1.5", ...}]``."""
    return [{"pair": f"{r.get('a')}-{r.get('b')}", **{k: cell(r, k) for k in ROW_KEYS}}
            for r in results]


def markdown_table(results: Sequence[dict]) -> str:
    """The table in Markdown (GitHub's pipe tables)."""
    cols = ("pair", *ROW_KEYS)
    lines = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    for row in rows(results):
        lines.append("| " + " | ".join(row[c].replace("|", "\\|") for c in cols) + " |")
    return "\n".join(lines) + "\n"
