"""The explain panel: a read-only rich-text view of :func:`explorer.present.explain.to_html`
(the text itself is Qt-free, in :mod:`explorer.present.explain`)."""

from __future__ import annotations

from typing import Optional

from PyQt6.QtCore import QTimer
from PyQt6.QtWidgets import QTextBrowser, QVBoxLayout

from explorer.present.explain import (  # noqa: F401 - re-exported for the panel's users
    REGION_WORDS, TEMPLATES, explain, region_sentence, sources, split_methods, to_html,
    why_miss)
from explorer.qt.panels.base import PairPanel


class ExplainPanel(PairPanel):
    """Dock panel: a read-only rich-text view of :func:`to_html`."""

    overlay_prefix = "explain"

    def __init__(self, scene, workspace, commands=None, viewport=None, evaluator=None,
                 parent=None):
        super().__init__(scene, workspace, commands, viewport, evaluator, parent)
        self.browser = QTextBrowser(self)
        self.browser.setOpenExternalLinks(False)
        self.browser.setToolTip("How the selected pair's answer was computed, step by step, "
                                "with the current numbers")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.browser)
        self._last_html = ""
        self._pending: Optional[tuple] = None
        # Laying out rich text costs ~10 ms: during a drag the text follows at most every
        # THROTTLE_MS (the last state always lands), so the drag's frame never waits for it.
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.THROTTLE_MS)
        self._timer.timeout.connect(self.flush)
        self.start()
        self.flush()

    THROTTLE_MS = 100

    def show_pair(self, a, b, result) -> None:
        self._queue((result, a.name, b.name, a.primitive, b.primitive))

    def show_nothing(self) -> None:
        self._queue((None, "A", "B"))

    def _queue(self, what: tuple) -> None:
        self._pending = what  # the text is built when shown, not on every drag step
        if not self._timer.isActive():
            self._timer.start()

    def flush(self) -> None:
        """Show the pending text now."""
        self._timer.stop()
        what, self._pending = self._pending, None
        text = None
        if what is not None:
            answer, name_a, name_b, *prims = what
            # the templates read the typed answer when the text is shown (throttled), not per
            # drag step
            text = to_html(answer, name_a, name_b, *(prims or (None, None)))
        if text is not None and text != self._last_html:  # setHtml relayouts: only on change
            self._last_html = text
            scroll = self.browser.verticalScrollBar().value()
            self.browser.setHtml(text)
            self.browser.verticalScrollBar().setValue(scroll)

    def text(self) -> str:
        """The shown text (after :meth:`flush`)."""
        self.flush()
        return self.browser.toPlainText()
