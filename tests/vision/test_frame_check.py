"""Frames that can show no card: each said in one line, and a lasting one said once."""

from __future__ import annotations

import numpy as np
import pytest

from sim.render import CardPlacement, SceneSpec, render_scene
from vision.frame_check import ProblemWatch, colourless, frame_problem
from vision.identify import identify

SCENE = render_scene(SceneSpec(cards=(CardPlacement("QH", 400, 300, 15.0, 200),), seed=1))[0]


@pytest.mark.parametrize(
    ("frame", "says"),
    [
        (np.zeros((600, 800, 3), np.uint8), "black: the lens is covered"),
        (np.full((600, 800, 3), 255, np.uint8), "white all over"),
        (np.full((600, 800, 3), (90, 120, 60), np.uint8), "one flat colour"),
        (np.zeros((4, 3, 3), np.uint8), "only 3 x 4 pixels"),
        (SCENE[..., 1], "no colour"),
        (np.repeat(SCENE[..., 1:2], 3, axis=2), "no colour"),
        (np.zeros((0, 5), np.uint8), "not a picture"),
        ([[1, 2], [3, 4]], "not a picture (list)"),
    ],
)
def test_a_frame_that_can_show_no_card_is_said_in_one_line(frame: object, says: str) -> None:
    problem = frame_problem(frame)
    assert problem is not None and says in problem and "\n" not in problem


def test_a_scene_and_a_dim_one_are_no_problem() -> None:
    assert frame_problem(SCENE) is None and not colourless(SCENE)
    assert frame_problem((SCENE * 0.25).astype(np.uint8)) is None  # dim, but cards still show
    assert frame_problem(SCENE.astype(np.uint16) * 257) is None  # a 16-bit camera's frame


@pytest.mark.parametrize("shape", [(600, 800, 3), (6000, 8000, 3), (600, 800)])
def test_the_reader_reads_no_card_in_a_frame_that_shows_none(shape: tuple[int, ...]) -> None:
    for level in (0, 255):
        assert identify(np.full(shape, level, np.uint8)) == []


def test_a_problem_is_said_once_it_has_lasted_and_taken_back_at_the_first_good_frame() -> None:
    watch, black, s = ProblemWatch(after_ns=1_000), np.zeros((60, 80, 3), np.uint8), 1
    assert watch.see(black, 0) == (False, None)  # a moment: a hand over the lens
    assert watch.see(black, 999 * s) == (False, None)
    assert watch.see(black, 1_000 * s) == (True, "black: the lens is covered or the room is dark")
    assert watch.see(black, 2_000 * s) == (False, "black: the lens is covered or the room is dark")  # said once
    white = np.full((60, 80, 3), 255, np.uint8)
    assert watch.see(white, 2_500 * s)[0] is True  # another problem, still lasting: said in its place
    assert watch.see(SCENE, 3_000 * s) == (True, None)
    assert watch.see(SCENE, 3_100 * s) == (False, None)


def test_the_command_says_each_bad_frame_in_one_line_and_reads_the_rest(tmp_path, capsys) -> None:
    import cv2

    from table.cli import main

    frames = {
        "black.png": np.zeros((600, 800, 3), np.uint8),
        "white.png": np.full((600, 800, 3), 255, np.uint8),
        "tiny.png": np.full((4, 3, 3), 128, np.uint8),
        "grey.png": SCENE[..., 1],
        "huge.jpg": cv2.resize(SCENE, (8000, 6000), interpolation=cv2.INTER_NEAREST),
        "scene.png": SCENE,
    }
    for name, frame in frames.items():
        cv2.imwrite(str(tmp_path / name), frame)
    (tmp_path / "words.jpg").write_text("not a picture", encoding="utf-8")
    names = [str(tmp_path / name) for name in (*frames, "words.jpg")]
    assert main(["vision", "identify", *names]) == 1  # one could not be read: a script learns so
    out = capsys.readouterr()
    said = dict(line.split(": ", 1) for line in out.out.splitlines())
    assert said[str(tmp_path / "scene.png")].startswith("QH") and said[str(tmp_path / "huge.jpg")].startswith("QH")
    assert said[str(tmp_path / "words.jpg")].startswith("error: cannot read: not an image")
    for name, says in (("black", "black"), ("white", "white all over"), ("tiny", "only 3 x 4"), ("grey", "no colour")):
        assert f"{tmp_path / name}.png: {says}" in out.err
    assert "Traceback" not in out.err and len(out.err.splitlines()) == 4


def test_the_command_says_where_a_frame_s_time_goes(tmp_path, capsys) -> None:
    import json

    import cv2

    from table.cli import main

    cv2.imwrite(str(tmp_path / "scene.png"), SCENE)
    assert main(["vision", "identify", str(tmp_path / "scene.png"), "--timings", "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    times = result["timings_ms"]
    assert {"find outlines", "read cards", "the rest", "total"} <= set(times) and all(v >= 0 for v in times.values())
    assert sum(v for k, v in times.items() if k != "total") == pytest.approx(times["total"], rel=1e-6)
    assert main(["vision", "identify", str(tmp_path / "scene.png"), "--timings"]) == 0
    assert "find outlines" in capsys.readouterr().out.splitlines()[1]
