"""The property panel: the selected object's fields as numbers, edited live.

Typing a value rebuilds the primitive at once (the viewport follows); a value the geometry
refuses (a negative radius, ``min > max``, a zero direction, axes that are not orthonormal)
shows the :class:`~algorithms.primitives.GeometryError` message under its field and leaves the
scene as it was. Only the edited field is taken from the spin boxes; every other number keeps
its full precision.
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np
from PyQt6.QtWidgets import (QCheckBox, QDoubleSpinBox, QFormLayout, QHBoxLayout, QLabel,
                             QLineEdit, QPushButton, QScrollArea, QVBoxLayout, QWidget)

from algorithms.primitives import GeometryError, field_names, from_fields

#: field name -> (rows, help text); rows = 0 for a scalar, 1 for a vector, 3 for 3 vectors
FIELD_SHAPES = {"vertices": 3, "axes": 3, "radius": 0, "height": 0, "d": 0}
FIELD_HELP = {
    "position": "The point's coordinates x, y, z",
    "p0": "First end point (parameter t = 0)", "p1": "Second end point (parameter t = 1)",
    "origin": "Where the ray or line starts (t = 0)",
    "direction": "Direction vector (nonzero, not necessarily unit: it scales t)",
    "normal": "Plane normal (nonzero); the front side is normal . x > d",
    "d": "Plane offset: the plane is all x with normal . x = d",
    "vertices": "The triangle's three corners",
    "center": "Centre point", "radius": "Radius (>= 0)",
    "min": "Smallest corner (min <= max on every axis)",
    "max": "Largest corner (min <= max on every axis)",
    "axes": "Three orthonormal unit rows (within 1e-6); drag the box's axis grips to rotate",
    "extents": "Half-lengths along the three axes (>= 0)",
    "axis": "Cylinder axis direction (nonzero)", "height": "Distance between the end disks (>= 0)",
}
#: digits a field shows: enough to tell 2.000001 from 2 (issue 10), at most 12 significant
SHOWN_DIGITS = 12
#: the spin boxes keep this many decimals, so a typed value reaches the scene unrounded
KEPT_DECIMALS = 20


def shown(value: float) -> str:
    """How a field shows ``value``: the shortest of its 12-significant-digit forms
    (``2.000001``, ``0.1``, ``1e-07``), never a rounded-to-4-decimals one."""
    return f"{float(value):.{SHOWN_DIGITS}g}"


class PreciseSpin(QDoubleSpinBox):
    """A spin box that keeps what was typed (20 decimals) and shows it without padding."""

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt's name
        return shown(value)

    def valueFromText(self, text: str) -> float:  # noqa: N802 - Qt's name
        try:
            return float(text)
        except ValueError:
            return self.value()


def _spin(decimals: int, tip: str) -> QDoubleSpinBox:
    s = PreciseSpin()
    s.setDecimals(KEPT_DECIMALS)
    s.setRange(-1e6, 1e6)
    s.setSingleStep(0.1)
    s.setKeyboardTracking(True)
    s.setAccelerated(True)
    s.setToolTip(tip)
    s.setMinimumWidth(70)
    return s


def _with_component(current, row, col, value):
    """``current`` (a number, a vector or 3 rows) with the one component ``[row][col]``
    replaced by ``value``; everything else exactly as it was."""
    if col is None:
        return float(value)
    if row is None:
        vec = [float(c) for c in current]
        vec[col] = float(value)
        return vec
    rows = [[float(c) for c in r] for r in current]
    rows[row][col] = float(value)
    return rows


class PropertyPanel(QWidget):
    """The selected object's numbers. Built from the scene and the :class:`Commands` it edits
    through (it never calls the window)."""

    def __init__(self, scene, commands, parent=None):
        super().__init__(parent)
        self.scene = scene
        self.commands = commands
        self.obj_id: Optional[str] = None
        self.kind: Optional[str] = None
        self.spins: dict = {}  # (field, row, col) -> spin; row None for vectors, col None scalars
        self.errors: dict = {}  # field -> QLabel
        self._updating = False
        outer = QVBoxLayout(self)
        outer.setContentsMargins(2, 2, 2, 2)
        self.title = QLabel("No object selected")
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight: bold")
        outer.addWidget(self.title)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        self.body = QWidget()
        self.form = QFormLayout(self.body)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        scroll.setWidget(self.body)
        outer.addWidget(scroll)

    # ------------------------------------------------------------------ building
    def show_object(self, obj) -> None:
        """Build the form for ``obj`` (``None``: empty)."""
        self._clear()
        if obj is None:
            self.obj_id = self.kind = None
            self.title.setText("No object selected: click one in the view or the scene list")
            return
        self.obj_id, self.kind = obj.id, obj.kind
        self.title.setText(f"{obj.kind}  '{obj.id}'")
        self.label_edit = QLineEdit(obj.label or "")
        self.label_edit.setPlaceholderText(obj.id)
        self.label_edit.setToolTip("The name shown in the lists and labels (the id stays)")
        self.label_edit.editingFinished.connect(self._label_done)
        self.form.addRow("label", self.label_edit)
        for name in field_names(obj.kind):
            rows = FIELD_SHAPES.get(name, 1)
            tip = FIELD_HELP.get(name, name)
            dec = KEPT_DECIMALS
            if rows == 0:
                s = _spin(dec, tip)
                s.valueChanged.connect(lambda _v, n=name: self._edited(n))
                s.editingFinished.connect(self.commands.end_merge)
                self.spins[(name, None, None)] = s
                self.form.addRow(name, s)
            elif rows == 1:
                self.form.addRow(name, self._vector_row(name, None, dec, tip))
            else:
                for r in range(3):
                    self.form.addRow(f"{name}[{r}]", self._vector_row(name, r, dec, tip))
            err = QLabel("")
            err.setStyleSheet("color: #c62828")
            err.setWordWrap(True)
            err.setVisible(False)
            self.errors[name] = err
            self.form.addRow("", err)
        if obj.kind == "obb":
            self.axes_row = 0
            b = QPushButton("Re-orthonormalize axes")
            b.setToolTip("Make the axes as typed exactly orthonormal (Gram-Schmidt): the row you "
                         "typed last keeps its direction, the others turn to fit")
            b.clicked.connect(self._orthonormalize)
            self.form.addRow("", b)
        # motion
        self.motion_check = QCheckBox("moves")
        self.motion_check.setToolTip("Give the object a motion: it translates by t * motion as t "
                                     "runs over [0, 1] (time of impact needs one)")
        self.motion_check.toggled.connect(self._motion_toggled)
        self.form.addRow("motion", self.motion_check)
        self.form.addRow("", self._vector_row("motion", None, 4,
                                              "Displacement over t in [0, 1]"))
        self.refresh(obj)

    def _vector_row(self, name: str, row, dec: int, tip: str) -> QWidget:
        w = QWidget()
        h = QHBoxLayout(w)
        h.setContentsMargins(0, 0, 0, 0)
        h.setSpacing(2)
        for c in range(3):
            s = _spin(dec, f"{tip} ({'xyz'[c]})")
            s.valueChanged.connect(lambda _v, n=name, r=row, c=c: self._edited(n, r, c))
            s.editingFinished.connect(self.commands.end_merge)
            self.spins[(name, row, c)] = s
            h.addWidget(s)
        return w

    def _clear(self) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.spins, self.errors = {}, {}

    # ------------------------------------------------------------------ model -> fields
    def refresh(self, obj) -> None:
        """Show ``obj``'s current values (after a drag, undo, ...)."""
        if obj is None or obj.id != self.obj_id:
            return
        if obj.kind != self.kind:
            self.show_object(obj)
            return
        self._updating = True
        values = obj.primitive.to_fields()
        for (name, row, col), s in self.spins.items():
            if name == "motion":
                v = (obj.motion or (0.0, 0.0, 0.0))[col]
                s.setEnabled(obj.motion is not None)
            elif row is None and col is None:
                v = values[name]
            elif row is None:
                v = values[name][col]
            else:
                v = values[name][row][col]
            if s.value() != float(v) and not (s.hasFocus() and shown(s.value()) == shown(v)):
                s.setValue(float(v))
        self.motion_check.setChecked(obj.motion is not None)
        if not self.label_edit.hasFocus():
            self.label_edit.setText(obj.label or "")
        for err in self.errors.values():
            err.setVisible(False)
        self._updating = False

    # ------------------------------------------------------------------ fields -> model
    def field_value(self, name: str):
        """The edited field as the spin boxes show it."""
        rows = FIELD_SHAPES.get(name, 1)
        if rows == 0:
            return self.spins[(name, None, None)].value()
        if rows == 1:
            return [self.spins[(name, None, c)].value() for c in range(3)]
        return [[self.spins[(name, r, c)].value() for c in range(3)] for r in range(3)]

    def set_field(self, name: str, value) -> None:
        """Type ``value`` into the spin boxes of ``name`` (as a user would; for tests)."""
        rows = FIELD_SHAPES.get(name, 1)
        if rows == 0:
            self.spins[(name, None, None)].setValue(float(value))
            return
        if rows == 1:
            value = [value]
        for r, vec in enumerate(value):
            for c, v in enumerate(vec):
                self.spins[(name, None if rows == 1 else r, c)].setValue(float(v))

    def _edited(self, name: str, row=None, col=None) -> None:
        """One spin box of ``name`` changed: only that component is written back; the others
        keep the scene's full-precision values (issue 10: the whole vector used to be
        rewritten rounded to 4 decimals)."""
        if self._updating or self.obj_id is None or self.obj_id not in self.scene:
            return
        if name == "axes" and row is not None:
            self.axes_row = row  # the row the student typed: Re-orthonormalize keeps it
        obj = self.scene[self.obj_id]
        if name == "motion":
            if obj.motion is not None:
                motion = list(obj.motion)
                if col is None:
                    motion = self.field_value("motion")
                else:
                    motion[col] = self.spins[("motion", None, col)].value()
                self.commands.edit(self.obj_id, "Edit motion", key=("prop", self.obj_id, name),
                                   motion=tuple(float(m) for m in motion))
            return
        values = obj.primitive.to_fields()
        values[name] = _with_component(values[name], row, col,
                                       self.spins[(name, row, col)].value())
        for err in self.errors.values():
            err.setVisible(False)
        try:
            prim = from_fields(obj.kind, values)
        except GeometryError as exc:
            self.show_error(exc)
            return
        self.commands.edit(self.obj_id, f"Edit {name}", key=("prop", self.obj_id, name),
                           primitive=prim)

    def show_error(self, exc: GeometryError) -> None:
        base = exc.field.split("[")[0]
        label = self.errors.get(base) or next(iter(self.errors.values()))
        text = str(exc)
        if base == "axes":
            text += (" — type the direction you want in one row, then press 'Re-orthonormalize "
                     "axes': that row is kept and the others turn to fit")
        label.setText(text)
        label.setVisible(True)

    def error_text(self) -> str:
        return " ".join(e.text() for e in self.errors.values() if e.isVisibleTo(self))

    def _label_done(self) -> None:
        if self.obj_id is None or self.obj_id not in self.scene:
            return
        text = self.label_edit.text().strip() or None
        if text != self.scene[self.obj_id].label:
            self.commands.edit(self.obj_id, "Rename", label=text)

    def _motion_toggled(self, on: bool) -> None:
        if self._updating or self.obj_id is None:
            return
        obj = self.scene[self.obj_id]
        if on and obj.motion is None:
            self.commands.add_motion(self.obj_id)
        elif not on and obj.motion is not None:
            self.commands.edit(self.obj_id, "Remove motion", motion=None)

    def _orthonormalize(self) -> None:
        """Gram-Schmidt on the axes *as typed* (a typed set the geometry refused never
        reached the scene), keeping the direction of the row typed last."""
        obj = self.scene[self.obj_id]
        typed = np.asarray(self.field_value("axes"), dtype=float)
        k = getattr(self, "axes_row", 0)
        if not np.all(np.isfinite(typed)) or np.linalg.norm(typed[k]) < 1e-12:
            typed = np.asarray(obj.primitive.axes, dtype=float)
            k = 0
        # rotate the rows so that the kept one comes first, and back at the end (right-handed
        # order is preserved by a cyclic shift)
        a = np.roll(typed, -k, axis=0)
        q0 = a[0] / (np.linalg.norm(a[0]) or 1.0)
        q1 = a[1] - (a[1] @ q0) * q0
        n1 = np.linalg.norm(q1)
        if not math.isfinite(n1) or n1 < 1e-9:
            q1 = np.cross(q0, [0.0, 0.0, 1.0] if abs(q0[2]) < 0.9 else [1.0, 0.0, 0.0])
            n1 = np.linalg.norm(q1)
        q1 = q1 / n1
        q2 = np.cross(q0, q1)
        if float(q2 @ a[2]) < 0 and float(np.linalg.det(a)) < 0:
            q2 = -q2
        rows = np.roll(np.array([q0, q1, q2]), k, axis=0)
        axes = tuple(tuple(float(c) for c in r) for r in rows)
        values = obj.primitive.to_fields()
        values["axes"] = axes
        self.commands.edit(self.obj_id, "Orthonormalize axes",
                           primitive=from_fields("obb", values))
        self.refresh(self.scene[self.obj_id])
