"""``explorer export``: every format is read back by the library that reads it, and the
answers are in it (issue 14).

The scene is hand-made so the answers are known without the library: segment A from (0,0,0)
to (2,0,0), ball B of radius 1 at (1,3,0). The point of A nearest B's centre is its projection
(1,0,0); B's nearest point is the centre moved by r = 1 towards it, (1,2,0); distance 3 - 1 = 2.
With B moving by (0,-6,0) over t in [0,1], its centre is at y = 3 - 6t and it touches A when
3 - 6t = 1, at t = 1/3.
"""

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np
import pytest

from algorithms import Segment, Sphere
from explorer.cli import main
from explorer.model.scene import Scene, SceneObject
from explorer.model.scenefile import save
from explorer.render import export as ex

PA, PB = np.array([1.0, 0.0, 0.0]), np.array([1.0, 2.0, 0.0])  # the closest points (above)
SIZE = (320, 240)


def _scene(moving: bool = False) -> Scene:
    scene = Scene("export test")
    scene.add(SceneObject("A", Segment((0, 0, 0), (2, 0, 0))))
    scene.add(SceneObject("B", Sphere((1, 3, 0), 1.0), motion=(0, -6, 0) if moving else None))
    return scene


def _has_answer_segment(point_sets) -> bool:
    """Some single mesh holds both closest points: the closest-points answer is drawn (the
    ball's own mesh holds (1,2,0) on its equator, never (1,0,0))."""
    for pts in point_sets:
        pts = np.asarray(pts, dtype=float).reshape(-1, 3)
        if len(pts) and (np.linalg.norm(pts - PA, axis=1).min() < 1e-5
                         and np.linalg.norm(pts - PB, axis=1).min() < 1e-5):
            return True
    return False


def test_the_scene_answers_what_the_docstring_derives():
    (r,) = _scene().evaluate()
    assert r["distance"] == pytest.approx(2.0)
    np.testing.assert_allclose(r["closest"], [PA, PB], atol=1e-12)
    (m,) = _scene(moving=True).evaluate()
    assert m["toi"] == pytest.approx(1 / 3)


def test_png_is_an_image_of_the_asked_size_with_something_drawn(tmp_path):
    import imageio.v3 as iio

    out = ex.export(_scene(), tmp_path / "s.png", size=SIZE)
    img = iio.imread(out)
    assert img.shape[:2] == (SIZE[1], SIZE[0])
    assert img[..., :3].reshape(-1, 3).std(axis=0).max() > 5  # not one flat colour


@pytest.mark.parametrize("ext", [".gltf", ".glb"])
def test_gltf_and_glb_load_in_trimesh_and_pygltflib_with_the_answers(tmp_path, ext):
    import pygltflib
    import trimesh

    out = ex.export(_scene(), tmp_path / f"s{ext}", size=SIZE)
    loaded = trimesh.load(out, force="scene")
    assert len(loaded.geometry) >= 3  # A, B and at least the closest-points answer
    assert _has_answer_segment(g.vertices for g in loaded.geometry.values())
    gltf = pygltflib.GLTF2().load(str(out))
    assert gltf.asset.version == "2.0"
    if ext == ".glb":
        assert out.read_bytes()[:4] == b"glTF" and len(gltf.buffers) == 1
    else:
        json.loads(out.read_text())  # glTF JSON


# VTK's OBJ reader gives the normals and group ids of the line cells no values: PyVista warns
@pytest.mark.filterwarnings("ignore:PolyData mesh is not valid")
def test_obj_reads_back_in_pyvista_with_its_mtl(tmp_path):
    import pyvista as pv

    out = ex.export(_scene(), tmp_path / "s.obj", size=SIZE)
    assert out.with_suffix(".mtl").is_file()
    mesh = pv.read(out)
    assert mesh.n_points > 100  # the ball's sphere alone has hundreds
    pts = np.asarray(mesh.points)
    assert np.linalg.norm(pts - PA, axis=1).min() < 1e-5  # the closest point on A is drawn


def test_vtm_has_one_named_block_per_object_and_answer(tmp_path):
    import pyvista as pv

    out = ex.export(_scene(), tmp_path / "s.vtm", size=SIZE)
    blocks = pv.read(out)
    names = list(blocks.keys())
    assert "obj:A" in names and "obj:B" in names
    assert any("closest" in n for n in names)
    assert _has_answer_segment(blocks[n].points for n in names if "closest" in n)
    np.testing.assert_allclose(blocks["obj:A"].points[[0, -1]], [[0, 0, 0], [2, 0, 0]],
                               atol=1e-6)


def test_vtksz_is_a_vtkjs_scene_with_every_drawn_actor(tmp_path):
    out = ex.export(_scene(), tmp_path / "s.vtksz", size=SIZE)
    with zipfile.ZipFile(out) as z:
        index = json.loads(z.read("index.json"))
    assert index  # vtk.js's OfflineLocalView state
    assert len(json.dumps(index)) > 1000


def test_html_page_is_self_contained_and_lists_the_answers(tmp_path):
    out = ex.export(_scene(), tmp_path / "s.html", size=SIZE)
    page = out.read_text(encoding="utf-8")
    # the answers' table, added by the page's script (as a JSON string: "</" written "<\/")
    assert "explorer-results" in page and "<td>2<\\/td>" in page  # the distance
    assert "http" not in page.split("explorer-answers", 1)[1]  # our panel loads nothing
    # nothing fetched from the network: no script or stylesheet from elsewhere
    assert "<script src=\"http" not in page and "<link rel=\"stylesheet\" href=\"http" not in page


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(_chromium() is None, reason="no chromium (.ci/run installs it)")
def test_html_page_draws_the_scene_in_headless_chromium(tmp_path):
    """The page opened in a real browser with no Python behind it: WebGL draws the scene.
    Red pixels: the closest-points segment and its end points are drawn in #d62728."""
    import imageio.v3 as iio

    out = ex.export(_scene(), tmp_path / "s.html", size=SIZE)
    shot = tmp_path / "shot.png"
    browser = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
               "--disable-background-networking", "--disable-component-update",
               "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
               "--window-size=800,600", "--virtual-time-budget=8000"]
    subprocess.run([*browser, f"--screenshot={shot}", out.as_uri()], check=True,
                   capture_output=True, timeout=180)
    dom = subprocess.run([*browser, "--dump-dom", out.as_uri()], check=True,
                         capture_output=True, timeout=180, text=True).stdout
    # the answers' panel is in the page once the viewer has started (it replaces the body)
    assert 'id="explorer-answers"' in dom and "<td>2</td>" in dom
    img = iio.imread(shot)[..., :3].astype(int)
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    red = (r > 170) & (g < 90) & (b < 90)
    assert red.sum() > 30, "the closest-points answer is not drawn"
    ball = (b > 120) & (r < 120)  # B is the palette's second colour... any coloured object
    assert (img.std(axis=2) > 25).sum() > 2000 or ball.sum() > 500  # objects, not a blank page


def test_svg_has_the_labels_as_vector_text_over_the_3d_picture(tmp_path):
    """VTK's GL2PS export (OpenGL2) keeps 2-D props (the labels, the title) as vectors and
    embeds the 3-D geometry as one picture: both are checked."""
    import base64

    import imageio.v3 as iio

    out = ex.export(_scene(), tmp_path / "s.svg", size=SIZE)
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg")
    text = " ".join("".join(e.itertext()) for e in root.iter() if e.tag.endswith("text"))
    assert "A–B  d = 2" in text and "export test" in text  # the distance label, as text
    (image,) = [e for e in root.iter() if e.tag.endswith("image")]
    href = next(v for k, v in image.attrib.items() if k.endswith("href"))
    assert href.startswith("data:image/png;base64,")
    picture = iio.imread(base64.b64decode(href.split(",", 1)[1]), extension=".png")
    assert picture.shape[:2] == (SIZE[1], SIZE[0])
    assert picture[..., :3].reshape(-1, 3).std(axis=0).max() > 5


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="no poppler-utils (.ci/run "
                    "installs it)")
def test_pdf_reads_back_in_poppler_with_the_labels_in_ascii(tmp_path):
    """pdftotext reads the labels back; GL2PS writes them in a standard font, so the en dash
    of "A–B" is written "A-B" (never the mojibake the UTF-8 bytes would give)."""
    out = ex.export(_scene(), tmp_path / "s.pdf", size=SIZE)
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and b"%%EOF" in data[-64:]
    text = subprocess.run(["pdftotext", str(out), "-"], check=True, capture_output=True,
                          timeout=120, text=True).stdout
    assert "A-B d = 2" in " ".join(text.split()) and "export test" in text
    subprocess.run(["pdftoppm", "-png", "-r", "30", str(out), str(tmp_path / "p")],
                   check=True, timeout=120)
    import imageio.v3 as iio

    (page,) = list(tmp_path.glob("p*.png"))
    assert iio.imread(page)[..., :3].reshape(-1, 3).std(axis=0).max() > 5  # drawn, not blank


def test_ascii_text_spells_out_what_a_standard_pdf_font_lacks():
    assert ex.ascii_text("seg\u2013ball \u00a710.8 r\u00b2 \u2264 1") == "seg-ball S10.8 r^2 <= 1"
    assert ex.ascii_text("caf\u00e9") == "cafe"


def test_timeline_gif_and_mp4_have_every_frame_and_show_the_motion(tmp_path):
    import imageio.v3 as iio

    scene = _scene(moving=True)
    gif = iio.imread(ex.export(scene, tmp_path / "t.gif", size=SIZE), index=None)
    mp4 = iio.imread(ex.export(scene, tmp_path / "t.mp4", size=SIZE), index=None)
    assert gif.shape[0] == ex.TIMELINE_FRAMES and mp4.shape[0] == ex.TIMELINE_FRAMES
    assert gif.shape[1:3] == (SIZE[1], SIZE[0]) and mp4.shape[1:3] == (SIZE[1], SIZE[0])
    first, last = gif[0][..., :3].astype(int), gif[-1][..., :3].astype(int)
    assert np.abs(first - last).mean() > 1  # the ball moved
    assert np.abs(gif[1][..., :3].astype(int) - gif[2][..., :3].astype(int)).mean() > 0.1


def test_drag_animation_goes_round_and_back(tmp_path):
    """No object moves: the animation is a drag of A around a circle, back where it began."""
    import imageio.v3 as iio

    frames = iio.imread(ex.export(_scene(), tmp_path / "d.gif", size=SIZE), index=None)
    assert frames.shape[0] == ex.DRAG_FRAMES + 1
    f0, half, end = (frames[i][..., :3].astype(int) for i in (0, ex.DRAG_FRAMES // 2, -1))
    assert np.abs(f0 - half).mean() > 1
    assert np.abs(f0 - end).mean() < np.abs(f0 - half).mean() / 4


def test_bad_targets_are_one_clear_message(tmp_path, capsys):
    path = tmp_path / "s.json"
    save(_scene(), path)
    assert main(["export", str(path), "-o", str(tmp_path / "x.stl")]) == 2
    assert "unknown extension '.stl'" in capsys.readouterr().err
    assert main(["export", str(path), "-o", str(tmp_path / "no" / "x.png")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["export", str(path), "-o", str(tmp_path / "x.png"), "--size", "4", "4"]) == 2
    assert "--size" in capsys.readouterr().err
    assert main(["export", str(path), "-o", str(tmp_path / "x.gif"), "--animate",
                 "timeline"]) == 2
    assert "no object of the scene has a motion" in capsys.readouterr().err


def test_command_line_writes_png_and_markdown(tmp_path, capsys):
    import imageio.v3 as iio

    path = tmp_path / "s.json"
    save(_scene(), path)
    assert main(["export", str(path), "-o", str(tmp_path / "v.png"), "--size", "200",
                 "150"]) == 0
    assert iio.imread(tmp_path / "v.png").shape[:2] == (150, 200)
    assert main(["export", str(path), "-o", str(tmp_path / "e.md")]) == 0
    md = (tmp_path / "e.md").read_text()
    assert md.startswith("# export test")
    assert "| A-B | no | 2 |" in md  # the table row: no intersection, distance 2
    assert "## A – B (segment-sphere)" in md and "**Method:**" in md


def test_explain_markdown_of_a_pair_has_its_steps():
    from explorer.present.explain_md import pair_markdown

    scene = _scene()
    md = pair_markdown(scene.answer("A", "B"), "A", "B", scene["A"].primitive,
                       scene["B"].primitive)
    assert "**Answer:** intersects = no, distance = 2" in md
    assert "\n1. " in md  # numbered steps of a template
    import re

    assert not re.search(r"</?[a-z][^>]*>", md), md  # no HTML tags left over
    # the why-miss words, unescaped: the line y = 0 passes 3 from the centre, f^2 = 1 - 9
    assert "f^2 = -8 < 0" in md


def test_every_extension_is_documented_in_the_readme():
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    for ext in ex.FORMATS:
        assert f"`{ext}`" in readme, ext
