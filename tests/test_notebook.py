"""examples/notebook.ipynb runs headless in a real Jupyter kernel (nbclient + ipykernel), and
``show`` there gives the interactive view with the answers and the results table (issue 14).

The notebook's scene: segment A (0,0,0)-(2,0,0), ball B radius 1 at (1,3,0), box C
[3,5]x[-1,1]x[-1,1]. A-B: closest points (1,0,0) and (1,2,0), distance 3 - 1 = 2. A-C: A's end
(2,0,0) to the face x = 3, distance 1. B-C: the box point nearest (1,3,0) is (3,1,0), distance
sqrt(4 + 4) - 1 = 1.82843 (6 digits: 1.82843).
"""

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[1]


def test_notebook_runs_and_shows_the_view_and_the_table(tmp_path):
    nb = nbformat.read(ROOT / "examples" / "notebook.ipynb", as_version=4)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    old = dict(os.environ)
    os.environ.update(env)  # the kernel is a child process: it inherits this environment
    try:
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    view_cell, rows_cell = nb.cells[1], nb.cells[2]
    (out,) = [o for o in view_cell.outputs if o.output_type == "execute_result"]
    page = out.data["text/html"]
    assert "<iframe" in page and "vtk" in page.lower()  # the interactive vtk.js view
    assert "explorer-results" in page and "<td>A–B</td><td>no</td><td>2</td>" in page
    assert "image/png" in out.data  # a still picture too, for viewers without HTML
    text = "".join(o.get("text", "") for o in rows_cell.outputs)
    assert text.split("\n")[:3] == ["A-B no 2", "A-C no 1", "B-C no 1.82843"]
