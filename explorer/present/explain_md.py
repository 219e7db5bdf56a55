"""The explain panel's text as Markdown (File > Export and ``explorer export SCENE -o X.md``):
the same method, sources, answer and step-by-step sentences, with the current numbers, from
the explain templates over the typed answer (Eberly & Schneider, GTCG; Dunn & Parberry, App. A; Boreskov).

Qt-free and VTK-free, like the templates (:mod:`explorer.present.explain`)."""

from __future__ import annotations

import html
import re
from typing import Optional

from algorithms.answer import PairAnswer
from explorer.present.explain import (explain, fmt, kept_methods, sources, subject, summary,
                                       trace_values)
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


def pair_markdown(answer: Optional[PairAnswer], name_a: str = "A", name_b: str = "B",
                  prim_a=None, prim_b=None) -> str:
    """The explain text of one pair (its typed answer) as Markdown."""
    if answer is None:
        return "No pair chosen.\n"
    x = subject(answer, prim_a, prim_b)
    out = [f"## {name_a} – {name_b} ({answer.pair})", ""]
    method = x.method
    if method:
        out += ["**Method:**", ""] + [f"- {m}" for m in kept_methods(method)] + [""]
    refs = sources(method)
    if refs:
        out += [f"**Source:** {', '.join(refs)}", ""]
    if answer.error:
        out += [f"**Error:** {answer.error}", ""]
    shown = [f"{k} = {fmt(v)}" for k, v in summary(answer)]
    if shown:
        out += ["**Answer:** " + ", ".join(shown), ""]
    for title, source, sentences in explain(answer, x=x):
        out += [f"### {_plain(title)} ({source})", ""]
        out += [f"{i}. {_plain(s)}" for i, s in enumerate(sentences, 1)] + [""]
    scalars = trace_values(answer)
    if scalars:
        out += ["### Trace values", "", "| key | value |", "| --- | --- |"]
        out += [f"| `{_cell(k)}` | {_cell(fmt(v) if not isinstance(v, str) else v)} |"
                for k, v in scalars[:30]]
        out.append("")
    return "\n".join(out) + "\n"


def scene_markdown(scene) -> str:
    """Every query pair of ``scene``: the answers table, then each pair's explain text."""
    answers = scene.answers()
    parts = [f"# {scene.name}", "", markdown_table(answers)]
    for ans in answers:
        a, b = scene[ans.a], scene[ans.b]
        parts.append(pair_markdown(ans, a.name, b.name, a.primitive, b.primitive))
    return "\n".join(parts)
