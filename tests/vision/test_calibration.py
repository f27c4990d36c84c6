"""Calibration and zones: a synthetic table seen in perspective maps back to millimetres within 2 mm."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.calibration import (
    MOVED_MM,
    Calibration,
    CalibrationError,
    ZoneError,
    calibrate_from_markers,
    calibrate_from_points,
    check_markers,
    default_marker_mm,
    find_markers,
    marker_centre,
)
from vision.overlay import draw_overlay
from vision.zones import Zone, default_zones, load_zones, zone_at

TABLE_W, TABLE_H = 800, 600  # mm between marker centres
OFFSET = 100  # the flat picture is 1 px per mm, with the table's origin 100 px in
MARKER = 60  # mm (and flat pixels) on a side
CLOTH = (40, 110, 40)
FLAT_SIZE = (TABLE_W + 2 * OFFSET, TABLE_H + 2 * OFFSET)  # width, height
WARPED_SIZE = (1100, 820)
# The camera's view: the flat picture's corners land here (a tilted, off-centre camera).
PERSPECTIVE = cv2.getPerspectiveTransform(
    np.float32([[0, 0], [FLAT_SIZE[0], 0], [FLAT_SIZE[0], FLAT_SIZE[1]], [0, FLAT_SIZE[1]]]),
    np.float32([[80, 50], [1020, 110], [1060, 760], [30, 700]]),
)
MARKER_MM = default_marker_mm(TABLE_W, TABLE_H)
CHECK_POINTS_MM = [(0, 0), (800, 0), (800, 600), (0, 600), (400, 300), (123, 456), (700, 80), (250, 590)]


def flat_table(
    cover: tuple[int, ...] = (),
    turns: dict[int, int] | None = None,
    extra: int | None = None,
    moved: dict[int, tuple[int, int]] | None = None,
) -> np.ndarray:
    """The table from straight above: cloth, and each marker with a white quiet zone round it
    (``moved``: some markers that many mm off their places)."""
    image = np.full((FLAT_SIZE[1], FLAT_SIZE[0], 3), CLOTH, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    shift = moved or {}
    places = {
        i: (int(x) + OFFSET + shift.get(i, (0, 0))[0], int(y) + OFFSET + shift.get(i, (0, 0))[1])
        for i, (x, y) in MARKER_MM.items()
    }
    if extra is not None:
        places[-1] = (OFFSET + 400, OFFSET + 150)
    for marker_id, (cx, cy) in places.items():
        if marker_id in cover:
            continue
        tile = np.full((MARKER + 20, MARKER + 20), 255, np.uint8)
        marker = cv2.aruco.generateImageMarker(dictionary, extra if marker_id == -1 else marker_id, MARKER)
        tile[10 : 10 + MARKER, 10 : 10 + MARKER] = np.rot90(marker, (turns or {}).get(marker_id, 0))
        half = (MARKER + 20) // 2
        image[cy - half : cy + half, cx - half : cx + half] = tile[..., None]
    return image


def camera_view(flat: np.ndarray) -> np.ndarray:
    return cv2.warpPerspective(flat, PERSPECTIVE, WARPED_SIZE, flags=cv2.INTER_LINEAR, borderValue=(30, 30, 30))


def mm_to_camera(points_mm: Any) -> np.ndarray:
    """Where a table point appears in the camera view (pixel centres are whole numbers)."""
    flat = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2) + OFFSET - 0.5
    return cv2.perspectiveTransform(flat, PERSPECTIVE).reshape(-1, 2)


def bumped_view(flat: np.ndarray) -> np.ndarray:
    """The camera's view after a knock: turned a degree and shifted a little over 20 pixels."""
    turn = cv2.getRotationMatrix2D((WARPED_SIZE[0] / 2, WARPED_SIZE[1] / 2), 1.0, 1.0)
    turn[:, 2] += (18, -12)
    return cv2.warpAffine(camera_view(flat), turn, WARPED_SIZE, borderValue=(30, 30, 30))


@pytest.fixture(scope="module")
def view() -> np.ndarray:
    return camera_view(flat_table())


@pytest.fixture(scope="module")
def calibration(view: np.ndarray) -> Calibration:
    return calibrate_from_markers(view, MARKER_MM)


# --- markers -------------------------------------------------------------------------------------


def test_find_markers_finds_the_four_corners(view: np.ndarray) -> None:
    found = find_markers(view)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in found.items():
        assert corners.shape == (4, 2)
        expected = mm_to_camera([MARKER_MM[marker_id]])[0]
        assert np.linalg.norm(marker_centre(corners) - expected) < 1.5


def test_find_markers_on_a_grey_image(view: np.ndarray) -> None:
    assert sorted(find_markers(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY))) == [0, 1, 2, 3]


def test_find_markers_refuses_what_is_not_an_image() -> None:
    with pytest.raises(CalibrationError, match="uint8"):
        find_markers(np.zeros((10, 10), np.float32))


def test_markers_map_back_to_millimetres(calibration: Calibration) -> None:
    assert calibration.method == "markers"
    assert calibration.image_size == WARPED_SIZE
    assert calibration.outline_mm == ((0.0, 0.0), (800.0, 0.0), (800.0, 600.0), (0.0, 600.0))
    mapped = calibration.to_table(mm_to_camera(CHECK_POINTS_MM))
    assert np.abs(mapped - np.array(CHECK_POINTS_MM)).max() < 2.0
    back = calibration.to_image(np.array(CHECK_POINTS_MM, dtype=float))
    assert np.abs(back - mm_to_camera(CHECK_POINTS_MM)).max() < 2.0


def test_marker_size_uses_the_corners_and_reports_a_real_error(view: np.ndarray) -> None:
    calibration = calibrate_from_markers(view, MARKER_MM, marker_size_mm=MARKER)
    assert 0 < calibration.reprojection_error < 1.0
    mapped = calibration.to_table(mm_to_camera(CHECK_POINTS_MM))
    assert np.abs(mapped - np.array(CHECK_POINTS_MM)).max() < 1.0


def test_markers_may_lie_any_way_round() -> None:
    view = camera_view(flat_table(turns={0: 1, 2: 2, 3: 3}))
    calibration = calibrate_from_markers(view, MARKER_MM, marker_size_mm=MARKER)
    assert calibration.reprojection_error < 1.0
    assert np.abs(calibration.to_table(mm_to_camera(CHECK_POINTS_MM)) - np.array(CHECK_POINTS_MM)).max() < 1.0


def test_a_wrong_marker_size_shows_in_the_error(view: np.ndarray) -> None:
    assert calibrate_from_markers(view, MARKER_MM, marker_size_mm=90).reprojection_error > 5


def test_a_covered_marker_is_named() -> None:
    view = camera_view(flat_table(cover=(2,)))
    with pytest.raises(CalibrationError, match=r"marker\(s\) 2 not found in the image \(found: 0, 1, 3\)"):
        calibrate_from_markers(view, MARKER_MM)


def test_two_covered_markers_are_named() -> None:
    view = camera_view(flat_table(cover=(1, 3)))
    with pytest.raises(CalibrationError, match=r"marker\(s\) 1, 3 not found"):
        calibrate_from_markers(view, MARKER_MM)


def test_no_markers_at_all() -> None:
    with pytest.raises(CalibrationError, match=r"0, 1, 2, 3 not found.*found: none"):
        calibrate_from_markers(np.full((200, 300, 3), 90, np.uint8), MARKER_MM)


def test_a_marker_seen_twice_is_refused() -> None:
    view = camera_view(flat_table(extra=1))
    with pytest.raises(CalibrationError, match=r"marker\(s\) 1 seen more than once"):
        calibrate_from_markers(view, MARKER_MM)


def test_markers_in_the_wrong_corners_are_refused(view: np.ndarray) -> None:
    swapped = dict(MARKER_MM)
    swapped[1], swapped[3] = MARKER_MM[3], MARKER_MM[1]
    with pytest.raises(CalibrationError, match=r"not in the same order.*top-left, top-right"):
        calibrate_from_markers(view, swapped)


@pytest.mark.parametrize(
    ("marker_mm", "message"),
    [
        ({0: (0, 0), 1: (1, 0), 2: (1, 1)}, "needs 4 markers"),
        ({0: (0, 0), 1: (1, 0), 2: (1, 1), "3": (0, 1)}, "'3' is not a marker id"),
        ({0: (0, 0), 1: (1, 0), 2: (1, 1), 3: (0, "x")}, "marker 3: position"),
        ([(0, 0)], "must map marker ids"),
    ],
)
def test_bad_marker_positions_are_named(view: np.ndarray, marker_mm: Any, message: str) -> None:
    with pytest.raises(CalibrationError, match=message):
        calibrate_from_markers(view, marker_mm)


def test_default_marker_mm_refuses_a_bad_size() -> None:
    with pytest.raises(CalibrationError, match="width_mm"):
        default_marker_mm(0, 600)


def test_a_frame_s_markers_say_the_calibration_holds(view: np.ndarray, calibration: Calibration) -> None:
    check = check_markers(view, calibration, MARKER_MM)
    assert check.steady and not check.moved and check.unseen == () and check.astray == []
    assert max(check.off_mm.values()) < 2.0
    assert check.describe().startswith("the calibration holds (marker 0 ")


def test_a_bumped_camera_moves_every_marker_and_is_calibrated_again(calibration: Calibration) -> None:
    knocked = bumped_view(flat_table())
    check = check_markers(knocked, calibration, MARKER_MM)
    assert check.moved and not check.steady and check.astray == [0, 1, 2, 3]
    assert min(check.off_mm.values()) >= MOVED_MM
    assert check.describe().endswith(": calibrate again")
    assert check_markers(knocked, calibrate_from_markers(knocked, MARKER_MM), MARKER_MM).steady


def test_one_marker_knocked_askew_is_named_and_the_calibration_holds(calibration: Calibration) -> None:
    check = check_markers(camera_view(flat_table(moved={2: (40, 0)})), calibration, MARKER_MM)
    assert check.steady and not check.moved and check.astray == [2]
    assert 37 < check.off_mm[2] < 43
    assert check.describe().endswith("put marker 2 back where it was")


def test_covered_or_doubled_markers_are_not_seen(calibration: Calibration) -> None:
    check = check_markers(camera_view(flat_table(cover=(0, 1, 3))), calibration, MARKER_MM)
    assert not check.steady and not check.moved and check.unseen == (0, 1, 3) and list(check.off_mm) == [2]
    assert check.describe().startswith("too few markers in view") and "not seen: 0, 1, 3" in check.describe()
    doubled = check_markers(camera_view(flat_table(extra=1)), calibration, MARKER_MM)
    assert doubled.unseen == (1,) and doubled.steady


def test_checking_a_frame_of_another_size_or_bad_marker_places_is_refused(
    view: np.ndarray, calibration: Calibration
) -> None:
    with pytest.raises(CalibrationError, match="calibrate again"):
        check_markers(view[:400], calibration, MARKER_MM)
    with pytest.raises(CalibrationError, match="needs 4 markers"):
        check_markers(view, calibration, {0: (0.0, 0.0)})


def test_the_calibrate_command_writes_a_calibration_and_checks_it(tmp_path: Path, capsys) -> None:
    from table.cli import main

    photo, knocked = tmp_path / "table.png", tmp_path / "knocked.png"
    cv2.imwrite(str(photo), camera_view(flat_table()))
    cv2.imwrite(str(knocked), bumped_view(flat_table()))
    out, overlay = tmp_path / "cal.json", tmp_path / "check.png"
    assert main(["calibrate", "--image", str(photo), "--out", str(out), "--overlay", str(overlay)]) == 0
    assert Calibration.load(out).method == "markers" and cv2.imread(str(overlay)).shape[:2] == (820, 1100)
    capsys.readouterr()
    assert main(["calibrate", "--image", str(photo), "--check", str(out)]) == 0
    assert "the calibration holds" in capsys.readouterr().out
    assert main(["calibrate", "--image", str(knocked), "--check", str(out)]) == 1
    assert capsys.readouterr().out.strip().endswith(": calibrate again")
    assert main(["calibrate", "--image", str(photo), "--check", str(tmp_path / "none.json")]) == 2
    assert "none.json" in capsys.readouterr().err
    assert main(["calibrate", "--image", str(photo), "--check", str(out), "--points", "0,0 1,0 1,1 0,1"]) == 2
    assert "--points belongs to making a calibration" in capsys.readouterr().err
    other = tmp_path / "other.json"  # zones with nothing to draw them on: refused, nothing written
    assert main(["calibrate", "--image", str(photo), "--out", str(other), "--zones", str(tmp_path / "z.toml")]) == 2
    assert "give --overlay PNG too" in capsys.readouterr().err and not other.exists()
    assert main(["calibrate", "--image", str(photo), "--check", str(out), "--zones", str(tmp_path / "z.toml")]) == 2
    assert "--zones belongs to making a calibration" in capsys.readouterr().err


# --- the calibration value -----------------------------------------------------------------------


def test_points_keep_their_shape(calibration: Calibration) -> None:
    assert calibration.to_table(np.array([500.0, 400.0])).shape == (2,)
    assert calibration.to_table([[500.0, 400.0], [10, 20]]).shape == (2, 2)
    assert calibration.to_table(np.zeros((3, 1, 2))).shape == (3, 1, 2)
    with pytest.raises(CalibrationError, match="shape"):
        calibration.to_table(np.zeros((3, 3)))


def test_save_and_load_round_trip(calibration: Calibration, tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    calibration.save(path)
    loaded = Calibration.load(path)
    assert loaded == calibration
    points = mm_to_camera(CHECK_POINTS_MM)
    assert np.array_equal(loaded.to_table(points), calibration.to_table(points))
    assert json.loads(path.read_text())["calibration"] == "cardtable-calibration/1"
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"calibration": "cardtable-calibration/1", "method": ', "not valid JSON"),
        ("[1, 2, 3]", "JSON object"),
        ('{"calibration": "something-else/2"}', "not a calibration"),
        ('{"calibration": "cardtable-calibration/1", "method": "markers"}', "missing key.*homography"),
        (
            '{"calibration": "cardtable-calibration/1", "method": "markers", "image_size": [10, 10], '
            '"homography": [[1, 0, 0], [0, 1, 0]], "reprojection_error": 0}',
            "3 rows of 3 numbers",
        ),
        (
            '{"calibration": "cardtable-calibration/1", "method": "guess", "image_size": [10, 10], '
            '"homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "reprojection_error": 0}',
            "method must be one of",
        ),
        (
            '{"calibration": "cardtable-calibration/1", "method": "points", "image_size": [10, 10], '
            '"homography": [[1, 0, 0], [0, 0, 0], [0, 0, 1]], "reprojection_error": 0}',
            "singular",
        ),
        (
            '{"calibration": "cardtable-calibration/1", "method": "points", "image_size": [10, 10], '
            '"homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "reprojection_error": 0, "colour": 1}',
            "unknown key.*colour",
        ),
        (" " * (2 << 20), "over 1048576 bytes, no calibration"),  # more than any calibration: not read whole
    ],
)
def test_a_bad_calibration_file_is_refused_with_its_name(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(text)
    with pytest.raises(CalibrationError, match=message) as info:
        Calibration.load(path)
    assert str(path) in str(info.value)


def test_a_missing_calibration_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match=r"nothing\.json does not exist"):
        Calibration.load(tmp_path / "nothing.json")
    with pytest.raises(CalibrationError, match="not a file"):
        Calibration.load(tmp_path)  # a folder; a device such as /dev/zero likewise, never read


def test_an_image_of_another_size_is_refused(calibration: Calibration) -> None:
    calibration.check_image(np.zeros((820, 1100, 3), np.uint8))
    with pytest.raises(CalibrationError, match="640x480 but the calibration was made at 1100x820"):
        calibration.check_image(np.zeros((480, 640, 3), np.uint8))


# --- points by hand ------------------------------------------------------------------------------


def test_calibrate_from_points() -> None:
    table = [(0, 0), (800, 0), (800, 600), (0, 600)]
    calibration = calibrate_from_points(mm_to_camera(table), table, image_size=WARPED_SIZE)
    assert calibration.method == "points" and calibration.image_size == WARPED_SIZE
    assert calibration.reprojection_error < 1e-3  # four points: an exact fit
    assert np.abs(calibration.to_table(mm_to_camera(CHECK_POINTS_MM)) - np.array(CHECK_POINTS_MM)).max() < 1e-3


def test_calibrate_from_more_points_fits_them_all() -> None:
    rng = np.random.default_rng(4)
    table = np.array([(0, 0), (800, 0), (800, 600), (0, 600), (400, 300), (100, 500)], dtype=float)
    pixels = mm_to_camera(table) + rng.normal(0, 0.3, (len(table), 2))
    calibration = calibrate_from_points(pixels, table)
    assert calibration.image_size is None
    assert 0 < calibration.reprojection_error < 1.0
    assert np.abs(calibration.to_table(mm_to_camera(CHECK_POINTS_MM)) - np.array(CHECK_POINTS_MM)).max() < 2.0


@pytest.mark.parametrize(
    ("pixels", "table", "message"),
    [
        ([(0, 0), (1, 0), (1, 1)], [(0, 0), (1, 0), (1, 1)], "needs 4 points, not 3"),
        ([(0, 0), (1, 0), (1, 1), (0, 1)], [(0, 0), (1, 0), (1, 1)], "4 image points but 3 table points"),
        (
            [(0, 0), (10, 0), (20, 0), (0, 10)],
            [(0, 0), (1, 0), (1, 1), (0, 1)],
            "point 0, point 1 and point 2 lie on one line in the image",
        ),
        ([(0, 0), (10, 0), (10, 10), (0, 10)], [(0, 0), (0, 1), (1, 1), (1, 0)], "not in the same order"),
        ([(0, 0), (10, 0), (10, 10), (0, 10)], [(0, 0), (1, 0), (0, 1), (1, 1)], "not in the same order"),
        ([(0, 0), (10, 0), (10, float("nan")), (0, 10)], [(0, 0), (1, 0), (1, 1), (0, 1)], "finite"),
        ([(0, 0, 0)] * 4, [(0, 0), (1, 0), (1, 1), (0, 1)], "shape"),
    ],
)
def test_bad_points_are_refused(pixels: Any, table: Any, message: str) -> None:
    with pytest.raises(CalibrationError, match=message):
        calibrate_from_points(pixels, table)


# --- zones ---------------------------------------------------------------------------------------

ZONES = {
    "table": {"width": 800},
    "zones": [
        {"name": "pile", "kind": "pile", "rect": [400, 250, 200, 200]},
        {"name": "seat-0", "kind": "seat", "seat": 0, "rect": [350, 550, 300, 150]},
        {"name": "trump", "kind": "trump", "polygon": [[450, 300], [550, 300], [550, 400], [450, 400]]},
        {"name": "cut", "kind": "cut", "polygon": [[0, 0], [100, 0], [0, 100]]},
    ],
}


def test_zones_from_a_table_configuration() -> None:
    zones = load_zones(ZONES)
    assert [z.name for z in zones] == ["pile", "seat-0", "trump", "cut"]
    pile, seat, _trump, cut = zones
    assert pile.polygon_mm == ((400.0, 250.0), (600.0, 250.0), (600.0, 450.0), (400.0, 450.0))
    assert pile.kind == "pile" and pile.seat is None and pile.area == 40_000
    assert seat.seat == 0 and seat.kind == "seat"
    assert cut.area == 5_000
    assert pile.centre == pytest.approx((500.0, 350.0))
    assert load_zones(ZONES["zones"]) == zones


def test_zone_at_picks_the_smallest_zone_containing_the_point() -> None:
    zones = load_zones(ZONES)
    assert zone_at(zones, (500, 350)).name == "trump"  # inside the pile too
    assert zone_at(zones, (420, 260)).name == "pile"
    assert zone_at(zones, (400, 250)).name == "pile"  # on the corner
    assert zone_at(zones, (500, 600)).name == "seat-0"
    assert zone_at(zones, (30, 30)).name == "cut"
    assert zone_at(zones, (90, 90)) is None  # beyond the cut triangle's long side
    assert zone_at(zones, (-1, -1)) is None
    assert zone_at([], (0, 0)) is None


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"name": "pile", "kind": "pile", "rect": [0, 0, 1, 1], "colour": "red"}, "zone 'pile': unknown key 'colour'"),
        ({"name": "seat-1", "kind": "seat", "rect": [0, 0, 1, 1]}, "zone 'seat-1': missing key 'seat'"),
        ({"name": "seat-1", "kind": "seat", "seat": -1, "rect": [0, 0, 1, 1]}, "zone 'seat-1': seat must be"),
        ({"name": "seat-1", "kind": "seat", "seat": True, "rect": [0, 0, 1, 1]}, "zone 'seat-1': seat must be"),
        ({"name": "pile", "kind": "pile", "seat": 2, "rect": [0, 0, 1, 1]}, "zone 'pile': key 'seat' is only for seat"),
        (
            {"name": "odd", "kind": "pile", "polygon": [[0, 0], [1, 1]]},
            "zone 'odd': polygon needs at least 3 points, not 2",
        ),
        ({"name": "flat", "kind": "pile", "polygon": [[0, 0], [1, 1], [2, 2]]}, "zone 'flat': polygon has no area"),
        ({"name": "bad", "kind": "pile", "polygon": [[0, 0], [1, "a"], [2, 0]]}, "zone 'bad': polygon"),
        ({"name": "deck", "kind": "deck", "rect": [0, 0, 1, 1]}, "zone 'deck': kind 'deck' is not one of pile, seat"),
        ({"name": "pile", "rect": [0, 0, 1, 1]}, "zone 'pile': missing key 'kind'"),
        ({"name": "pile", "kind": "pile"}, "zone 'pile': give one of rect .* not neither"),
        ({"name": "pile", "kind": "pile", "rect": [0, 0, 1, 1], "polygon": [[0, 0], [1, 0], [0, 1]]}, "not both"),
        (
            {"name": "pile", "kind": "pile", "rect": [0, 0, -5, 1]},
            "zone 'pile': rect width and height must be positive",
        ),
        ({"name": "pile", "kind": "pile", "rect": [0, 0, 1]}, r"zone 'pile': rect must be \[x, y, width, height\]"),
        ({"kind": "pile", "rect": [0, 0, 1, 1]}, "zone #2: name must be a non-empty string"),
        ("pile", "zone #2 must be a table"),
    ],
)
def test_bad_zone_definitions_name_the_zone_and_the_key(entry: Any, message: str) -> None:
    good = {"name": "stock", "kind": "stock", "rect": [0, 0, 10, 10]}
    with pytest.raises(ZoneError, match=message):
        load_zones({"zones": [good, entry]})


def test_zone_names_are_unique_and_the_list_must_be_there() -> None:
    with pytest.raises(ZoneError, match="zone 'pile': the name is used twice"):
        load_zones({"zones": [ZONES["zones"][0], ZONES["zones"][0]]})
    with pytest.raises(ZoneError, match=r"\[\[zones\]\]"):
        load_zones({"table": {}})
    with pytest.raises(ZoneError, match="must be a list"):
        load_zones({"zones": "pile"})


def test_zone_values_check_themselves() -> None:
    with pytest.raises(ZoneError, match="needs seat"):
        Zone("seat-2", "seat", ((0, 0), (1, 0), (1, 1)))
    with pytest.raises(ZoneError, match="kind 'hand'"):
        Zone("x", "hand", ((0, 0), (1, 0), (1, 1)))


def test_default_zones_for_four_players() -> None:
    zones = default_zones(4, TABLE_W, TABLE_H)
    names = [z.name for z in zones]
    assert names == ["pile", "stock", "trump", "seat-0", "seat-1", "seat-2", "seat-3"]
    by_name = {z.name: z for z in zones}
    assert zone_at(zones, (400, 300)) is by_name["pile"]
    stock_x, trump_x = by_name["stock"].centre[0], by_name["trump"].centre[0]
    assert stock_x < 400 < trump_x
    # seat 0 at the bottom middle, then clockwise as the camera sees it: left, top, right
    assert zone_at(zones, (400, 590)).seat == 0
    assert zone_at(zones, (10, 300)).seat == 1
    assert zone_at(zones, (400, 10)).seat == 2
    assert zone_at(zones, (790, 300)).seat == 3
    seats = [z for z in zones if z.kind == "seat"]
    assert max(z.area for z in seats) / min(z.area for z in seats) < 1.2


@pytest.mark.parametrize("players", [2, 3, 5, 8, 26])
def test_default_zones_do_not_overlap_and_stay_on_the_table(players: int) -> None:
    zones = default_zones(players, 900, 700)
    assert sorted(z.seat for z in zones if z.kind == "seat") == list(range(players))
    for zone in zones:
        xs, ys = zip(*zone.polygon_mm, strict=True)
        assert min(xs) >= -1e-9 and max(xs) <= 900 + 1e-9 and min(ys) >= -1e-9 and max(ys) <= 700 + 1e-9
    # points off the shared edges (a point exactly on an edge is in both zones; zone_at picks one)
    for x, y in itertools.product(np.arange(3.37, 900, 23), np.arange(3.71, 700, 23)):
        assert sum(z.contains((x, y)) for z in zones) <= 1, (x, y)
    for x in range(3, 900, 23):  # the whole edge belongs to somebody
        assert zone_at(zones, (x, 2)) is not None and zone_at(zones, (x, 698)) is not None


def test_default_zones_refuse_nonsense() -> None:
    with pytest.raises(ZoneError, match="players"):
        default_zones(0, 800, 600)
    with pytest.raises(ZoneError, match="too small"):
        default_zones(4, 300, 200)
    with pytest.raises(ZoneError, match="height_mm"):
        default_zones(4, 800, -1)


# --- the overlay ---------------------------------------------------------------------------------


def test_draw_overlay_marks_up_a_copy(view: np.ndarray, calibration: Calibration) -> None:
    before = view.copy()
    out = draw_overlay(view, calibration, default_zones(4, TABLE_W, TABLE_H))
    assert out.shape == view.shape and out.dtype == np.uint8
    assert np.array_equal(view, before)
    assert np.count_nonzero(np.any(out != view, axis=2)) > 5_000
    # the pile's outline is drawn where the calibration puts it
    corner = mm_to_camera([(300, 200)])[0].round().astype(int)
    patch = out[corner[1] - 3 : corner[1] + 4, corner[0] - 3 : corner[0] + 4]
    assert np.any(np.all(patch == (0, 200, 255), axis=2))


def test_draw_overlay_takes_a_grey_image(view: np.ndarray, calibration: Calibration) -> None:
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    out = draw_overlay(grey, calibration)
    assert out.shape == (*grey.shape, 3)


def test_calibrating_from_a_live_source_waits_for_a_frame_showing_every_marker(tmp_path: Path, capsys) -> None:
    """A hand over a marker spoils the first frames of a live source, not the calibration: the
    first frame showing all four is used. When none does, the frame showing most is, and the
    marker it misses is named."""
    from table.cli import main

    frames = tmp_path / "frames"
    frames.mkdir()
    for n in range(3):
        cv2.imwrite(str(frames / f"{n:02d}.png"), camera_view(flat_table(cover=(2,) if n < 2 else ())))
    out = tmp_path / "cal.json"
    assert main(["calibrate", "--source", f"folder:{frames}", "--out", str(out)]) == 0
    assert Calibration.load(out).method == "markers"
    (frames / "02.png").unlink()
    capsys.readouterr()
    assert main(["calibrate", "--source", f"folder:{frames}", "--out", str(tmp_path / "none.json")]) == 2
    assert "marker(s) 2 not found" in capsys.readouterr().err and not (tmp_path / "none.json").exists()


def test_the_calibrate_command_takes_four_points_by_hand(tmp_path: Path, capsys) -> None:
    from table.cli import main

    photo, out = tmp_path / "table.png", tmp_path / "cal.json"
    cv2.imwrite(str(photo), camera_view(flat_table(cover=(0, 1, 2, 3))))
    corners = mm_to_camera([(0, 0), (TABLE_W, 0), (TABLE_W, TABLE_H), (0, TABLE_H)])
    points = " ".join(f"{x:.2f},{y:.2f}" for x, y in corners)
    args = ["calibrate", "--image", str(photo), "--out", str(out), "--width-mm", str(TABLE_W), "--height-mm"]
    assert main([*args, str(TABLE_H), "--points", points]) == 0
    calibration = Calibration.load(out)
    assert calibration.method == "points"
    assert np.abs(calibration.to_table(mm_to_camera(CHECK_POINTS_MM)) - np.array(CHECK_POINTS_MM)).max() < 2.0
    capsys.readouterr()
    for wrong in ("10,10 20;20", "1,2 3,4", "1,2 3,4 5,6 7,8,9 10,11"):
        assert main([*args, str(TABLE_H), "--points", wrong]) == 2
        assert "give four x,y pixel points" in capsys.readouterr().err


def test_a_calibration_or_overlay_that_cannot_be_written_is_named(tmp_path: Path, capsys) -> None:
    from table.cli import main

    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), camera_view(flat_table()))
    nowhere = tmp_path / "missing" / "cal.json"
    assert main(["calibrate", "--image", str(photo), "--out", str(nowhere)]) == 2
    assert "cannot write it" in capsys.readouterr().err and not list(tmp_path.rglob("*.tmp"))
    assert main(["calibrate", "--image", str(photo), "--out", str(photo / "cal.json")]) == 2  # a file for a folder
    assert "cannot write it" in capsys.readouterr().err
    for size in ("1e308", "0", "-5", "nan"):
        with pytest.raises(SystemExit) as stopped:
            main(["calibrate", "--image", str(photo), "--out", str(nowhere), "--height-mm", size])
        assert stopped.value.code == 2 and "no table's size" in capsys.readouterr().err
    out = tmp_path / "cal.json"
    out.write_text("the older calibration", encoding="utf-8")
    for overlay, said in ((tmp_path / "check", "name it .png or .jpg"), (tmp_path / "no" / "check.png", "no folder")):
        assert main(["calibrate", "--image", str(photo), "--out", str(out), "--overlay", str(overlay)]) == 2
        assert said in capsys.readouterr().err
        assert (
            out.read_text(encoding="utf-8") == "the older calibration"
        )  # nothing written: the overlay was refused first


def test_an_overlay_s_bad_zones_are_refused_before_the_calibration_is_written(tmp_path: Path, capsys) -> None:
    """A zones file that cannot be read, or a count of players no table has, is named, and the
    calibration file is left as it was: not written anew, an older one not overwritten."""
    from table.cli import main

    photo, out, zones = tmp_path / "table.png", tmp_path / "cal.json", tmp_path / "zones.toml"
    cv2.imwrite(str(photo), camera_view(flat_table()))
    zones.write_text("[[zones]\nname = ", encoding="utf-8")
    args = ["calibrate", "--image", str(photo), "--out", str(out), "--overlay", str(tmp_path / "check.png")]
    assert main([*args, "--zones", str(zones)]) == 2
    assert "cannot read the zones" in capsys.readouterr().err and not out.exists()
    out.write_text("the older calibration", encoding="utf-8")
    assert main([*args, "--players", "-3"]) == 2
    assert out.read_text(encoding="utf-8") == "the older calibration"
    zones.write_bytes(b"\xff\xfe\x00 binary")
    assert main([*args, "--zones", str(zones)]) == 2
    assert "cannot read the zones" in capsys.readouterr().err
