"""The scene panel: the list of objects (select, show/hide, rename), with buttons to add,
duplicate, recolor and delete. It follows the scene's events and edits through the window."""

from __future__ import annotations

from typing import Optional

from PyQt6.QtCore import Qt, pyqtSignal
from PyQt6.QtGui import QColor, QIcon, QPixmap
from PyQt6.QtWidgets import (QAbstractItemView, QHBoxLayout, QToolButton, QTreeWidget,
                             QTreeWidgetItem, QVBoxLayout, QWidget)

from explorer.render.view import _rgb, color_of


def swatch(color) -> QIcon:
    pm = QPixmap(14, 14)
    try:
        r, g, b = _rgb(color)
        pm.fill(QColor.fromRgbF(r, g, b))
    except ValueError:
        pm.fill(QColor("gray"))
    return QIcon(pm)


class ScenePanel(QWidget):
    """Objects of the scene. Signals: ``selected(str)`` (``""``: none)."""

    selected = pyqtSignal(str)

    def __init__(self, workspace, commands, actions=(), parent=None):
        """``actions``: the buttons under the list (duplicate, rename, colour, hide, delete)."""
        super().__init__(parent)
        self.workspace = workspace
        self.commands = commands
        self._updating = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Object", "Type"])
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.tree.setToolTip("The scene's objects. Click to select, double-click (or F2) to "
                             "rename, untick to hide.")
        self.tree.setColumnWidth(0, 150)
        self.tree.itemSelectionChanged.connect(self._on_selection)
        self.tree.itemChanged.connect(self._on_item_changed)
        layout.addWidget(self.tree)
        row = QHBoxLayout()
        for action in actions:
            b = QToolButton()
            b.setDefaultAction(action)
            row.addWidget(b)
        row.addStretch(1)
        layout.addLayout(row)

    def set_scene(self, scene) -> None:
        self.scene = scene
        for sig, cb in ((scene.object_added, self._rebuild), (scene.object_removed, self._rebuild),
                        (scene.reset, self._rebuild), (scene.object_changed, self._on_changed)):
            sig.connect(cb)
        self._rebuild()

    def unbind(self) -> None:
        scene = getattr(self, "scene", None)
        if scene is None:
            return
        for sig, cb in ((scene.object_added, self._rebuild), (scene.object_removed, self._rebuild),
                        (scene.reset, self._rebuild), (scene.object_changed, self._on_changed)):
            sig.disconnect(cb)

    def _item_for(self, obj_id: str) -> Optional[QTreeWidgetItem]:
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item.data(0, Qt.ItemDataRole.UserRole) == obj_id:
                return item
        return None

    def _fill(self, item: QTreeWidgetItem, obj, index: int) -> None:
        item.setText(0, obj.name)
        item.setText(1, obj.kind)
        item.setData(0, Qt.ItemDataRole.UserRole, obj.id)
        item.setIcon(0, swatch(color_of(obj, index)))
        item.setCheckState(0, Qt.CheckState.Unchecked if obj.hidden else Qt.CheckState.Checked)
        motion = f"\nmoves by {list(obj.motion)} over t in [0, 1]" if obj.motion else ""
        item.setToolTip(0, f"id {obj.id!r}, label {obj.label!r}{motion}")

    def _rebuild(self, *_args) -> None:
        self._updating = True
        current = self.workspace.selected_id
        self.tree.clear()
        for i, obj in enumerate(self.scene.objects):
            item = QTreeWidgetItem()
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable
                          | Qt.ItemFlag.ItemIsUserCheckable)
            self._fill(item, obj, i)
            self.tree.addTopLevelItem(item)
        self._updating = False
        self.show_selection(current)

    def _on_changed(self, obj, fields) -> None:
        item = self._item_for(obj.id)
        if item is not None and fields & {"label", "color", "hidden", "motion"}:
            self._updating = True
            self._fill(item, obj, self.scene.index(obj.id))
            self._updating = False

    def show_selection(self, obj_id: Optional[str]) -> None:
        self._updating = True
        self.tree.clearSelection()
        item = self._item_for(obj_id) if obj_id else None
        if item is not None:
            item.setSelected(True)
            self.tree.setCurrentItem(item)
        self._updating = False

    def _on_selection(self) -> None:
        if self._updating:
            return
        items = self.tree.selectedItems()
        self.selected.emit(items[0].data(0, Qt.ItemDataRole.UserRole) if items else "")

    def _on_item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._updating:
            return
        obj_id = item.data(0, Qt.ItemDataRole.UserRole)
        if obj_id not in self.scene:
            return
        obj = self.scene[obj_id]
        hidden = item.checkState(0) == Qt.CheckState.Unchecked
        if hidden != obj.hidden:
            self.commands.edit(obj_id, "Hide" if hidden else "Show", hidden=hidden)
        text = item.text(0).strip()
        if column == 0 and text != obj.name:
            self.commands.edit(obj_id, "Rename", label=text or None)

    def rename(self, obj_id: str) -> None:
        item = self._item_for(obj_id)
        if item is not None:
            self.tree.editItem(item, 0)
