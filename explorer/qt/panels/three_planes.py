"""The Three planes panel (App. A.11, Goldman; issue 13, part 1): the common point of three
plane objects, the determinant and a conditioning meter that warns when the planes are nearly
dependent. It lists the scene's three-planes queries (``{"a", "b", "c"}``), else the first three
planes of the scene, and marks the point in the viewport.
"""

from __future__ import annotations

from PyQt6.QtCore import QRectF, QSize
from PyQt6.QtGui import QColor, QPainter
from PyQt6.QtWidgets import QComboBox, QLabel, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget

from explorer.present.three_planes import explain, meter

COLORS = {"good": "#2e8b3a", "fair": "#d89b00", "poor": "#c62828", "singular": "#7f0000"}
OVERLAY = "three-planes:point"


class MeterBar(QWidget):
    """A horizontal bar: the log-scale conditioning, green / amber / red."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.value = meter(1.0)
        self.setMinimumHeight(26)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setToolTip("Conditioning |(n1 x n2) . n3| of the unit normals, log scale from 1e-6 "
                        "(empty) to 1 (full, perpendicular planes); red: nearly dependent")

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(240, 26)

    def set_value(self, m) -> None:
        self.value = m
        self.update()

    def paintEvent(self, _event):  # noqa: N802 - Qt's name
        p = QPainter(self)
        r = QRectF(1, 3, self.width() - 2, self.height() - 6)
        p.fillRect(r, QColor("#e6e6e6"))
        p.fillRect(QRectF(r.x(), r.y(), r.width() * self.value.fill, r.height()),
                   QColor(COLORS[self.value.level]))
        p.setPen(QColor("#333333"))
        for k in range(7):  # decades 1e-6 .. 1
            x = r.x() + r.width() * k / 6
            p.drawLine(int(x), int(r.bottom()), int(x), int(r.bottom() - 5))
        p.drawRect(r)
        p.end()


class ThreePlanesPanel(QWidget):
    def __init__(self, scene, workspace=None, commands=None, viewport=None, evaluator=None,
                 parent=None):
        super().__init__(parent)
        self.scene, self.workspace, self.commands, self.viewport = (scene, workspace, commands,
                                                                     viewport)
        self.result = None
        self.combo = QComboBox()
        self.combo.setToolTip("Which three planes (the scene's three-planes queries, else its "
                              "first three planes)")
        self.combo.currentIndexChanged.connect(lambda _i: self.refresh())
        self.headline = QLabel("")
        self.headline.setWordWrap(True)
        f = self.headline.font()
        f.setBold(True)
        self.headline.setFont(f)
        self.bar = MeterBar()
        self.meter_words = QLabel("")
        self.meter_words.setWordWrap(True)
        self.text = QTextBrowser()
        self.text.setToolTip("The steps of Goldman's formula with the current numbers")
        lay = QVBoxLayout(self)
        lay.addWidget(self.combo)
        lay.addWidget(self.headline)
        lay.addWidget(QLabel("Conditioning:"))
        lay.addWidget(self.bar)
        lay.addWidget(self.meter_words)
        lay.addWidget(self.text, 1)
        self._triples: list[tuple] = []
        self._hooked = False
        for sig in (scene.reset, scene.object_added, scene.object_removed, scene.queries_changed):
            sig.connect(self._on_structure)
        scene.object_changed.connect(self._on_changed)

        def _disconnect(*_a):
            for sig in (scene.reset, scene.object_added, scene.object_removed,
                        scene.queries_changed):
                sig.disconnect(self._on_structure)
            scene.object_changed.disconnect(self._on_changed)

        self.destroyed.connect(_disconnect)
        self._on_structure()

    def showEvent(self, event):  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._hooked:  # a tabbed dock stays "visible": follow its tab instead
            from PyQt6.QtWidgets import QDockWidget

            w = self.parentWidget()
            while w is not None and not isinstance(w, QDockWidget):
                w = w.parentWidget()
            if w is not None:
                w.visibilityChanged.connect(self._on_dock_visibility)
                self._hooked = True
        self.refresh()

    def _on_dock_visibility(self, visible: bool) -> None:
        from PyQt6.QtCore import QTimer

        QTimer.singleShot(0, self._guarded_refresh)

    def _guarded_refresh(self) -> None:
        try:
            self.refresh()
        except RuntimeError:  # the widget is gone
            pass

    def on_screen(self) -> bool:
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def hideEvent(self, event):  # noqa: N802 - Qt's name: its marker goes with the panel
        super().hideEvent(event)
        try:
            self.viewport.remove_overlay(OVERLAY)
            self.viewport.render()
        except Exception:  # noqa: BLE001 - a viewport already closed (window exit)
            pass

    def triples(self) -> list[tuple]:
        qs = [q for q in self.scene.query_list() if len(q) == 3]
        if qs:
            return qs
        planes = [o.id for o in self.scene.objects if o.kind == "plane"]
        return [tuple(planes[:3])] if len(planes) >= 3 else []

    def _on_structure(self, *_a) -> None:
        try:
            triples = self.triples()
            if triples != self._triples:
                self._triples = triples
                self.combo.blockSignals(True)
                self.combo.clear()
                for t in triples:
                    self.combo.addItem(" / ".join(self.scene[i].name for i in t))
                self.combo.blockSignals(False)
            self.refresh()
        except RuntimeError:  # the widget is gone
            pass

    def _on_changed(self, obj, _fields) -> None:
        if obj.kind == "plane":
            try:
                self.refresh()
            except RuntimeError:
                pass

    def refresh(self) -> None:
        i = self.combo.currentIndex()
        if not self._triples or i < 0:
            self.result = None
            self.headline.setText("Three planes: add three planes (or a query {\"a\", \"b\", "
                                  "\"c\"} of three plane ids) to see where they meet")
            self.meter_words.setText("")
            self.text.setHtml("")
            self.viewport.remove_overlay(OVERLAY)
            return
        ids = self._triples[i]
        r = self.result = self.scene.evaluate_query(*ids)
        m = meter(r["conditioning"])
        self.bar.set_value(m)
        self.meter_words.setText(f"|c| = {abs(r['conditioning']):.3g}: {m.words}")
        self.meter_words.setStyleSheet(f"color: {COLORS[m.level]};")
        if r["point"] is not None:
            self.headline.setText("They meet in one point ({}, {}, {})".format(
                *(f"{c:.6g}" for c in r["point"])))
        else:
            self.headline.setText(f"No single point ({r['case']})")
        names = [self.scene[k].name for k in ids]
        self.text.setHtml("<ol>" + "".join(f"<li>{line}</li>" for line in explain(r, names))
                          + "</ol>")
        if r["point"] is not None and self.on_screen():
            import pyvista as pv

            size = self.viewport.view.ext.size
            self.viewport.add_overlay(OVERLAY, pv.Sphere(radius=0.03 * size, center=r["point"]),
                                      color=COLORS[m.level])
        else:
            self.viewport.remove_overlay(OVERLAY)
        self.viewport.render()

