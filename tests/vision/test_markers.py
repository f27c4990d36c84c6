"""``cardtable markers``: the four calibration markers drawn to print, each found where the
calibration looks for it, at the size asked."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from table.cli import main
from vision.calibration import CORNER_MARKERS, find_markers
from vision.markers import DPI, write_markers


def test_each_page_shows_its_marker_at_the_size_asked(tmp_path: Path) -> None:
    assert write_markers(tmp_path / "m.png", size_mm=60) == [tmp_path / f"m-{n}.png" for n in range(4)]
    for marker_id in CORNER_MARKERS:
        page = cv2.imread(str(tmp_path / f"m-{marker_id}.png"))
        found = find_markers(page)
        assert list(found) == [marker_id]
        side = np.linalg.norm(found[marker_id][1] - found[marker_id][0])
        assert abs(side - 60 * DPI / 25.4) < 3  # pixels at 300 dpi: printed at 100%, 60 mm


def test_the_pdf_has_a_page_a_marker(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["markers", "--out", str(tmp_path / "markers.pdf")]) == 0
    pdf = (tmp_path / "markers.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and b"/Count 4" in pdf
    assert "four markers 60 mm wide" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "says"), [(["--size-mm", "500"], "give 20 to 180 mm"), ([], "cannot write")])
def test_a_size_or_a_place_that_cannot_be_is_one_line(
    argv, says, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "missing" / "markers.pdf" if not argv else tmp_path / "markers.pdf")
    assert main(["markers", "--out", out, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardtable: error: ") and says in err and err.count("\n") == 1


def test_the_pages_written_are_the_ones_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["markers", "--out", str(tmp_path / "m.png")]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"wrote {' '.join(str(tmp_path / f'm-{n}.png') for n in range(4))}: four markers")
    for name in ("m.txt", "m"):  # a name that is neither a PDF nor PNG pages is refused, nothing written
        assert main(["markers", "--out", str(tmp_path / name)]) == 2
        assert f"not {name!r}" in capsys.readouterr().err and not (tmp_path / name).exists()
    assert main(["markers", "--out", str(tmp_path / "missing" / "m.png")]) == 2
    assert "cannot write" in capsys.readouterr().err
