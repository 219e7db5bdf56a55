"""Bound These and Hollow (issue 13, part 1): an AABB and a bounding sphere around chosen
objects; a sphere or an aabb made hollow (its surface only).

:func:`install` adds **Edit > Bound These…** (``Ctrl+B``): a list of the scene's bounded
objects (the selection and the chosen pair ticked), then one undoable step adds the AABB
(:func:`algorithms.extras.containment.bound_aabb`, Boreskov 3.7 on the shapes' extreme points)
and the enclosing sphere (:func:`~algorithms.extras.containment.bound_sphere`).
"""

from __future__ import annotations

from typing import Optional

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
)

from algorithms.extras.containment import bound_aabb, bound_sphere
from algorithms.kernels.support import BOUNDED_KINDS


def choose_objects(window, ids: list[str], checked: set) -> Optional[list[str]]:
    """Ask which objects to bound (``None``: cancelled). Tests replace this function."""
    dlg = QDialog(window)
    dlg.setWindowTitle("Bound these")
    lay = QVBoxLayout(dlg)
    lay.addWidget(QLabel("Objects to enclose in one AABB and one bounding sphere:"))
    lst = QListWidget()
    lst.setToolTip("Tick the objects to bound")
    for i in ids:
        item = QListWidgetItem(f"{window.scene[i].name}  ({window.scene[i].kind})")
        item.setData(Qt.ItemDataRole.UserRole, i)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if i in checked else Qt.CheckState.Unchecked)
        lst.addItem(item)
    lay.addWidget(lst)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dlg.accept)
    buttons.rejected.connect(dlg.reject)
    lay.addWidget(buttons)
    if dlg.exec() != QDialog.DialogCode.Accepted:
        return None
    return [lst.item(k).data(Qt.ItemDataRole.UserRole) for k in range(lst.count())
            if lst.item(k).checkState() == Qt.CheckState.Checked]


def bound_these(window, ids: Optional[list[str]] = None) -> list[str]:
    """Add the AABB and the sphere around ``ids`` (asked when ``None``); returns the new ids."""
    scene = window.scene
    bounded = [i for i in scene.ids() if scene[i].kind in BOUNDED_KINDS]
    if ids is None:
        ticked = {window.selected_id, *(window.current_pair() or ())} & set(bounded)
        ids = choose_objects(window, bounded, ticked or set(bounded))
        if ids is None:
            return []
    ids = [i for i in ids if i in bounded]
    if not ids:
        window.statusBar().showMessage("Bound these: choose at least one bounded object (rays, "
                                       "lines and planes have no bounding volume)", 5000)
        return []
    prims = [scene[i].primitive for i in ids]
    box, ball = bound_aabb(prims), bound_sphere(prims)
    names = ", ".join(scene[i].name for i in ids)
    window.undo_stack.checkpoint("Bound these")
    a = scene.add(box, id=scene.new_id("bounds_box"), label=f"AABB of {names}"[:60],
                  color="#7f7f7f")
    s = scene.add(ball, id=scene.new_id("bounds_sphere"), label=f"sphere of {names}"[:60],
                  color="#b0b0b0")
    window._touch()
    window.refresh()
    window.statusBar().showMessage(f"Bound {names}: {a.id} and {s.id} (radius "
                                   f"{ball.radius:.6g})", 6000)
    return [a.id, s.id]


def toggle_hollow(window) -> bool:
    """Make the selected sphere or aabb hollow (its surface only) or solid again (undoable)."""
    obj_id = window.selected_id
    if obj_id is None or obj_id not in window.scene:
        return False
    obj = window.scene[obj_id]
    if obj.kind not in ("sphere", "aabb"):
        window.statusBar().showMessage(f"{obj_id}: only a sphere or an aabb can be hollow", 4000)
        return False
    window.edit(obj_id, "Make solid" if obj.hollow else "Make hollow", hollow=not obj.hollow)
    now = "solid" if obj.hollow else "hollow (its surface only)"
    window.statusBar().showMessage(f"{obj_id} is now {now}", 4000)
    return True


def install(window) -> None:
    window.act_bound = window._action("&Bound These…", lambda: bound_these(window), "Ctrl+B",
                                      "Add an AABB and a bounding sphere around chosen objects "
                                      "(Ctrl+B)")
    edit_menu = next((a.menu() for a in window.menuBar().actions() if a.text() == "&Edit"), None)
    window.act_hollow = window._action("Hollow (Surface Only)", lambda: toggle_hollow(window),
                                       None, "Make the selected sphere or aabb its surface "
                                       "only, or solid again (GTCG §11.12.8's hollow variants)")
    if edit_menu is not None:
        edit_menu.addSeparator()
        edit_menu.addActions([window.act_bound, window.act_hollow])
