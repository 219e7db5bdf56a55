"""``explorer`` run as a child process by the tests that interrupt it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _default_sigint():
    # A shell starts a background job (`.ci/run ... &`, nohup) with SIGINT ignored, and a
    # child inherits that: Python then installs no KeyboardInterrupt handler, and the
    # Ctrl-C these tests send would be ignored as the shell asked. The user's Ctrl-C
    # reaches a program in the foreground, so the child gets the default disposition.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_explorer(*args: str) -> subprocess.Popen:
    """``python -m explorer *args`` from the checkout, its output piped, Ctrl-C as in a
    terminal (whatever the test run's own SIGINT disposition)."""
    return subprocess.Popen([sys.executable, "-m", "explorer", *args], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_default_sigint)
