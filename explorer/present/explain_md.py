"""The explain panel's text as Markdown (File > Export and ``explorer export SCENE -o X.md``):
the same method, sources, answer and step-by-step sentences, with the current numbers, from
the explain templates (Eberly & Schneider, GTCG; Dunn & Parberry, App. A; Boreskov).

Qt-free and VTK-free, like the templates (:mod:`explorer.present.explain`)."""

from __future__ import annotations

import html
import re
from typing import Optional

from explorer.present.explain import explain, fmt, sources, split_methods, with_extras
from explorer.present.table import markdown_table

_TAG = re.compile(r"<[^>]+>")


def _plain(text: str) -> str:
    """A template sentence (which may hold a little HTML: <i>, <sub>) as Markdown text."""
    text = re.sub(r"</?(b|strong)>", "**", text)
    text = re.sub(r"</?(i|em)>", "*", text)
    text = re.sub(r"</?code>", "`", text)
    return html.unescape(_TAG.sub("", text))


def _cell(text) -> str:
    return str(text).replace("|", "\\|")


def pair_markdown(result: Optional[dict], name_a: str = "A", name_b: str = "B",
                  prim_a=None, prim_b=None, answer=None) -> str:
    """The explain text of one pair (an ``explorer eval`` result) as Markdown."""
    if not result:
        return "No pair chosen.\n"
    if prim_a is not None and prim_b is not None:
        result = with_extras(result, prim_a, prim_b)
    out = [f"## {name_a} – {name_b} ({result.get('pair')})", ""]
    method = result.get("method") or ""
    if method:
        kept: list[str] = []
        for m in split_methods(method):
            if not any(m in k for k in kept):
                kept.append(m)
        out += ["**Method:**", ""] + [f"- {m}" for m in kept] + [""]
    refs = sources(method)
    if refs:
        out += [f"**Source:** {', '.join(refs)}", ""]
    if result.get("error"):
        out += [f"**Error:** {result['error']}", ""]
    summary = [f"{k} = {fmt(result[k])}" for k in
               ("intersects", "distance", "first_t", "separating_axis", "side", "toi")
               if result.get(k) is not None]
    if summary:
        out += ["**Answer:** " + ", ".join(summary), ""]
    for title, source, sentences in explain(result, answer, prim_a, prim_b):
        out += [f"### {_plain(title)} ({source})", ""]
        out += [f"{i}. {_plain(s)}" for i, s in enumerate(sentences, 1)] + [""]
    scalars = [(k, v) for k, v in (result.get("trace") or {}).items()
               if isinstance(v, (int, float)) or (isinstance(v, str) and len(v) < 80)]
    if scalars:
        out += ["### Trace values", "", "| key | value |", "| --- | --- |"]
        out += [f"| `{_cell(k)}` | {_cell(fmt(v) if not isinstance(v, str) else v)} |"
                for k, v in scalars[:30]]
        out.append("")
    return "\n".join(out) + "\n"


def scene_markdown(scene) -> str:
    """Every query pair of ``scene``: the answers table, then each pair's explain text."""
    from algorithms.report import result_json

    answers = scene.answers()
    parts = [f"# {scene.name}", "", markdown_table(answers)]
    for ans in answers:
        a, b = scene[ans.a], scene[ans.b]
        parts.append(pair_markdown(result_json(ans), a.name, b.name, a.primitive, b.primitive,
                                   answer=ans))
    return "\n".join(parts)
