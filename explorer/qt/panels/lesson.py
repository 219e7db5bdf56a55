"""The lesson panel: one step of the open lesson at a time (its text, what to look at, a question
checked against the library's answer), with Previous / Next.

The lesson is the ``"lesson"`` key of the open scene (:mod:`explorer.model.lesson`). Going to a
step applies its ``look``: the draw scope becomes the one pair (on the workspace model), and the
panel emits ``look_requested(look)``; whoever installs the panel
(:func:`explorer.qt.lessons.install`) chooses the pair (the window raises that pair's panels),
selects an object, brings the named panel to the front, moves the camera to a preset and draws
moving objects at a time. The panel is built from ``(scene, workspace, commands, viewport)``
and never calls back into the window. The answer is graded against what the library answers
for the scene *now*, so a student who drags the objects is graded on what they see.
"""

from __future__ import annotations

import html
from typing import Optional

from PyQt6.QtCore import QTimer, pyqtSignal
from PyQt6.QtWidgets import (
    QButtonGroup,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from explorer.model import lesson as lessons

TITLE = "Lesson"


class LessonPanel(QWidget):
    """Dock widget of the open lesson. ``step_changed(int)`` (0-based)."""

    step_changed = pyqtSignal(int)
    #: (explorer.model.lesson.Look) what the current step asks to look at
    look_requested = pyqtSignal(object)

    def __init__(self, scene, workspace=None, commands=None, viewport=None, evaluator=None,
                 parent=None):
        super().__init__(parent)
        self.scene = scene
        self.workspace = workspace
        self.commands = commands
        self.viewport = viewport
        self.lesson: Optional[lessons.Lesson] = None
        self.index = 0
        self.last_grade: Optional[lessons.Grade] = None
        self._scope_was: Optional[str] = None  # the answer scope before a lesson
        self.setObjectName("lesson-panel")

        self.title = QLabel("")
        self.title.setWordWrap(True)
        self.title.setObjectName("lesson-title")
        f = self.title.font()
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() * 1.15)
        self.title.setFont(f)
        self.source = QLabel("")
        self.source.setWordWrap(True)
        self.source.setStyleSheet("color: #555;")
        self.counter = QLabel("")
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(False)
        self.text.setMinimumHeight(140)
        self.text.setToolTip("What this step teaches")
        self.look_label = QLabel("")
        self.look_label.setWordWrap(True)
        self.look_label.setStyleSheet("color: #225;")
        self.show_me = QPushButton("Show me")
        self.show_me.setToolTip("Choose the step's pair, panel and camera again")
        self.show_me.clicked.connect(self.apply_look)

        self.question = QLabel("")
        self.question.setWordWrap(True)
        qf = self.question.font()
        qf.setBold(True)
        self.question.setFont(qf)
        self.answer_edit = QLineEdit()
        self.answer_edit.setPlaceholderText("type a number, then Check (Enter)")
        self.answer_edit.setToolTip("Your answer: a number (a decimal comma works too)")
        self.answer_edit.returnPressed.connect(self.check)
        self.choice_box = QWidget()
        self.choice_layout = QVBoxLayout(self.choice_box)
        self.choice_layout.setContentsMargins(0, 0, 0, 0)
        self.choice_group = QButtonGroup(self)
        self.choice_buttons: list[QRadioButton] = []
        self.check_button = QPushButton("Check")
        self.check_button.setToolTip("Compare your answer with the library's answer for the "
                                     "scene as it is now")
        self.check_button.clicked.connect(self.check)
        self.feedback = QLabel("")
        self.feedback.setWordWrap(True)
        self.feedback.setObjectName("lesson-feedback")

        self.prev_button = QPushButton("◀ Previous")
        self.prev_button.setToolTip("The previous step of the lesson")
        self.prev_button.clicked.connect(self.previous)
        self.next_button = QPushButton("Next ▶")
        self.next_button.setToolTip("The next step of the lesson")
        self.next_button.clicked.connect(self.next)

        lay = QVBoxLayout(self)
        lay.addWidget(self.title)
        lay.addWidget(self.source)
        lay.addWidget(self.counter)
        lay.addWidget(self.text, 1)
        row = QHBoxLayout()
        row.addWidget(self.look_label, 1)
        row.addWidget(self.show_me)
        lay.addLayout(row)
        lay.addWidget(self.question)
        lay.addWidget(self.answer_edit)
        lay.addWidget(self.choice_box)
        row = QHBoxLayout()
        row.addWidget(self.check_button)
        row.addWidget(self.feedback, 1)
        lay.addLayout(row)
        row = QHBoxLayout()
        row.addWidget(self.prev_button)
        row.addStretch(1)
        row.addWidget(self.next_button)
        lay.addLayout(row)

        scene.reset.connect(self._on_reset)
        self.destroyed.connect(lambda *_a: scene.reset.disconnect(self._on_reset))
        self.load_from_scene()

    # ------------------------------------------------------------------ lesson
    def _on_reset(self) -> None:
        try:
            self.load_from_scene()
        except RuntimeError:  # the C++ widget is gone
            pass

    def load_from_scene(self) -> None:
        try:
            self.lesson = lessons.lesson_of(self.scene)
        except lessons.LessonError as exc:  # the loader refuses these; a scene edited in memory
            self.lesson = None
            self.feedback.setText(str(exc))
        self.index = 0
        self.show_step()
        if self.lesson is not None:
            dock = self._dock()
            if dock is not None:
                dock.show()
                dock.raise_()
            # the window sets its pair after the scene's reset: look at step 1 once it has
            QTimer.singleShot(0, self._apply_look_safely)
        elif self._scope_was is not None:  # leaving a lesson: the user's scope back
            self._set_scope(self._scope_was)
            self._scope_was = None

    def _apply_look_safely(self) -> None:
        try:
            self.apply_look()
        except RuntimeError:  # the window closed meanwhile
            pass

    def _dock(self) -> Optional[QDockWidget]:
        w = self.parentWidget()
        while w is not None and not isinstance(w, QDockWidget):
            w = w.parentWidget()
        return w

    @property
    def step(self) -> Optional[lessons.Step]:
        if self.lesson is None:
            return None
        return self.lesson.steps[self.index]

    def go(self, index: int) -> None:
        if self.lesson is None:
            return
        self.index = max(0, min(index, len(self.lesson.steps) - 1))
        self.show_step()
        self.apply_look()
        self.step_changed.emit(self.index)

    def next(self) -> None:
        self.go(self.index + 1)

    def previous(self) -> None:
        self.go(self.index - 1)

    def show_step(self) -> None:
        self.last_grade = None
        self.feedback.setText("")
        self.feedback.setStyleSheet("")
        les = self.lesson
        has = les is not None
        for w in (self.prev_button, self.next_button, self.show_me, self.check_button):
            w.setEnabled(has)
        if not has:
            self.title.setText("No lesson open")
            self.source.setText("")
            self.counter.setText("")
            self.text.setHtml("<p>Open a lesson from the <b>Lessons</b> menu: each one is a "
                              "scene with a few steps to read, things to look at and a question "
                              "checked against the library's answer.</p>")
            self.look_label.setText("")
            self.question.setText("")
            self.answer_edit.hide()
            self.choice_box.hide()
            self.check_button.hide()
            return
        step = les.steps[self.index]
        self.title.setText(les.title)
        self.source.setText(les.source)
        self.counter.setText(f"Step {self.index + 1} of {len(les.steps)}: {step.title}")
        paras = "".join(f"<p>{html.escape(p)}</p>" for p in step.text.split("\n\n"))
        self.text.setHtml(paras)
        self.look_label.setText(self.describe_look(step.look))
        self.prev_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index < len(les.steps) - 1)
        self._build_question(step.question)

    def describe_look(self, look: lessons.Look) -> str:
        parts = []
        if look.pair:
            names = [self.scene[i].name if i in self.scene else i for i in look.pair]
            parts.append(f"the pair {names[0]} – {names[1]}")
        if look.select:
            parts.append(f"the object {look.select}")
        if look.panel:
            parts.append(f"the {look.panel} panel")
        if look.camera:
            parts.append(f"the {look.camera} view")
        if look.time is not None:
            parts.append(f"time t = {look.time:g}")
        return ("Look at " + ", ".join(parts) + ".") if parts else ""

    def _build_question(self, q: Optional[lessons.Question]) -> None:
        for b in self.choice_buttons:
            self.choice_group.removeButton(b)
            b.deleteLater()
        self.choice_buttons = []
        self.answer_edit.clear()
        if q is None:
            self.question.setText("")
            self.answer_edit.hide()
            self.choice_box.hide()
            self.check_button.hide()
            return
        self.question.setText(q.text)
        self.check_button.show()
        if q.kind == "number":
            self.answer_edit.show()
            self.choice_box.hide()
        else:
            self.answer_edit.hide()
            self.choice_box.show()
            for i, c in enumerate(q.choices):
                b = QRadioButton(c.label, self.choice_box)
                b.setToolTip(f"Answer: {c.label}")
                self.choice_group.addButton(b, i)
                self.choice_layout.addWidget(b)
                self.choice_buttons.append(b)

    # ------------------------------------------------------------------ look
    def apply_look(self) -> None:
        """Draw only the step's pair (the workspace's scope) and ask for the step's look."""
        step = self.step
        if step is None:
            return
        look = step.look
        if look.pair and self.workspace is not None:  # one pair drawn: the one it is about
            if self._scope_was is None:
                self._scope_was = self.workspace.scope
            self._set_scope("pair")
        self.look_requested.emit(look)

    def _set_scope(self, key: str) -> None:
        """The draw scope, on the workspace model (the window's menu follows it)."""
        if self.workspace is not None:
            self.workspace.set_scope(key)

    # ------------------------------------------------------------------ answers
    def given(self):
        """The student's answer as a value, or ``ValueError`` with what to do."""
        q = self.step.question
        if q.kind == "number":
            return lessons.parse_given(self.answer_edit.text())
        i = self.choice_group.checkedId()
        if i < 0:
            raise ValueError("choose an answer first")
        return q.choices[i].value

    def expected(self):
        """The library's answer for the scene as it is now (the stored answer if unreadable)."""
        q = self.step.question
        if q.check is None:
            return q.answer
        try:
            return lessons.library_answer(self.scene, q.check)
        except Exception:  # noqa: BLE001 - an object deleted by the student: the stored answer
            return q.answer

    def check(self) -> Optional[lessons.Grade]:
        step = self.step
        if step is None or step.question is None:
            return None
        try:
            given = self.given()
        except ValueError as exc:
            self.feedback.setText(str(exc)[:1].upper() + str(exc)[1:] + ".")
            self.feedback.setStyleSheet("color: #a60;")
            return None
        grade = lessons.grade(step.question, given, self.expected())
        self.last_grade = grade
        self.feedback.setText(grade.message)
        self.feedback.setStyleSheet("color: #070; font-weight: bold;" if grade.correct
                                    else "color: #b00;")
        return grade

    # ------------------------------------------------------------------ choosing
    def choose(self, value) -> None:
        """Tick the choice whose value is ``value`` (tests and keyboard users)."""
        for i, c in enumerate(self.step.question.choices):
            if lessons._same(c.value, value):
                self.choice_buttons[i].setChecked(True)
                return
        raise ValueError(f"no choice with value {value!r}")
