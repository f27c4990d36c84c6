"""``cardtable vision ...`` (read cards in photos, enrol a deck) and ``cardtable calibrate``."""

from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from table.errors import CardtableError
from vision.calibration import (
    Calibration,
    CalibrationError,
    calibrate_from_markers,
    calibrate_from_points,
    check_markers,
    default_marker_mm,
    find_markers,
)
from vision.frames import FrameSourceError, ImageFileError, open_source, read_image
from vision.overlay import draw_overlay
from vision.profile import enrol, load_deck
from vision.reader import UNSURE
from vision.zones import Zone, default_zones, load_zones


class OutputError(CardtableError, OSError):
    """A picture or folder the command was asked to write cannot be written; names it."""


def cmd_identify(args: argparse.Namespace) -> int:
    from vision.cores import use_one_core
    from vision.exposure import overexposure_advice
    from vision.frame_check import frame_problem
    from vision.identify import builtin_deck, draw, identify
    from vision.memory import keep_freed_memory
    from vision.stage_times import timed

    keep_freed_memory()  # many images, each frame's buffers alike
    use_one_core()
    deck = load_deck(args.deck) if args.deck else builtin_deck()
    if args.no_jokers:
        deck = replace(deck, jokers=False)
    if args.draw:
        try:
            Path(args.draw).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"--draw {args.draw}: cannot make the folder ({exc.strerror or exc})") from None
    drawn = {Path(name).resolve() for name in args.images}  # an input is never drawn over
    results = []
    for name in args.images:
        try:
            image = read_image(name)
        except ImageFileError as exc:
            results.append({"image": name, "error": str(exc), "cards": []})
            continue
        if args.timings and not results:
            identify(image, deck, args.threshold)  # the networks and tables load now, not in the first image's times
        with timed() as times:
            start = time.perf_counter_ns()
            cards = identify(image, deck, args.threshold)
            total = time.perf_counter_ns() - start
        results.append({"image": name, "cards": [c.to_json() for c in cards]})
        if args.timings:
            results[-1]["timings_ms"] = _stage_ms(times, total)
        if problem := frame_problem(image):
            print(f"{name}: {problem}; no card is read surely from it", file=sys.stderr)
        elif advice := overexposure_advice(image, cards):
            print(f"{name}: {advice}", file=sys.stderr)
        if args.draw:
            path = _drawn_path(Path(args.draw), Path(name).stem, drawn)
            _write_picture(path, _encoded(path, draw(image, cards)))
    if args.json:
        print(json.dumps(results))
    else:
        for result in results:
            if "error" in result:
                print(f"{result['image']}: error: {result['error']}")
                continue
            found = ", ".join(f"{c['code'] or 'unsure'} ({c['confidence']:.2f})" for c in result["cards"])
            print(f"{result['image']}: {found or 'no cards'}")
            if "timings_ms" in result:
                print("  " + ", ".join(f"{stage} {ms:.1f} ms" for stage, ms in result["timings_ms"].items()))
    return 1 if any("error" in result for result in results) else 0  # every image answered; a script learns one failed


def _stage_ms(times: dict[str, int], total_ns: int) -> dict[str, float]:
    """A frame's stages in milliseconds, what no stage holds as "the rest", and the whole."""
    out = {name: ns / 1e6 for name, ns in times.items()}
    out["the rest"] = max(0, total_ns - sum(times.values())) / 1e6
    out["total"] = total_ns / 1e6
    return out


def _encoded(path: Path, picture: np.ndarray) -> bytes:
    """The picture as its file will hold it, or why it cannot be written there (checked before
    anything is written)."""
    try:
        done, data = cv2.imencode(path.suffix or ".", picture)
    except cv2.error:
        done = False
    if not done:
        raise OutputError(f"{path}: cannot write a picture of that kind; name it .png or .jpg")
    if not path.parent.is_dir():
        raise OutputError(f"{path}: cannot write the picture there: no folder {path.parent}")
    return data.tobytes()


def _write_picture(path: Path, data: bytes) -> None:
    """Write an encoded picture (``_encoded``), or say why it cannot be."""
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write the picture there ({exc.strerror or exc})") from None


def _number_from(low: float, high: float, what: str) -> Callable[[str], float]:
    """An option's type: a number from ``low`` to ``high``, else named as no ``what``."""

    def parsed(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text!r} is no {what}")
        return value

    return parsed


_threshold = _number_from(0.0, 1.0, "confidence from 0 to 1")  # ``--threshold``
_table_mm = _number_from(50.0, 10_000.0, "table's size: give millimetres, 50 to 10000")  # ``--width-mm``


def _drawn_path(folder: Path, stem: str, taken: set[Path]) -> Path:
    """Where the annotated picture goes: the image's own name as a PNG in ``folder``, numbered
    when another image of the run had that name (``a/x.jpg`` and ``b/x.png``) or when that is
    one of the images read (``--draw`` their own folder), so that none is written over."""
    path, n = (folder / f"{stem}.png").resolve(), 1
    while path in taken:
        n += 1
        path = (folder / f"{stem}-{n}.png").resolve()
    taken.add(path)
    return path


def cmd_enrol(args: argparse.Namespace) -> int:
    report = enrol(args.folder, args.out)
    for line in report.lines():
        print(line)
    print(f"wrote {args.out}")
    return 0


SETTLE_FRAMES = 50  # frames a live source is given for a frame showing every marker (a camera settles, a hand moves)


def _calibration_frame(args: argparse.Namespace) -> np.ndarray:
    """The frame to calibrate (or check) from: the image given, or from a live source the first
    frame that shows every marker (``--points``: its first frame). A hand over a marker or a
    camera still settling its exposure spoils a frame, not the calibration; when no frame within
    ``SETTLE_FRAMES`` shows them all, the one showing most is used, and the markers it misses are named."""
    if args.image:
        try:
            return read_image(args.image)
        except ImageFileError as exc:
            raise CalibrationError(f"{args.image}: {exc}") from None
    wanted = set(default_marker_mm(args.width_mm, args.height_mm))
    best, shown = None, -1
    with open_source(args.source) as source:
        for _ in range(SETTLE_FRAMES):
            frame = source.read()
            if frame is None:
                continue
            if args.points:
                return frame.image
            seen = len(wanted & set(find_markers(frame.image)))
            if seen > shown:
                best, shown = frame.image, seen
            if seen == len(wanted):
                break
    if best is None:
        raise FrameSourceError(f"{args.source}: no frame came from the camera")
    return best


def cmd_calibrate(args: argparse.Namespace) -> int:
    if args.check and (args.points or args.overlay or args.zones):
        given = "--points" if args.points else "--overlay" if args.overlay else "--zones"
        raise CalibrationError(f"{given} belongs to making a calibration (--out); --check only checks one")
    if args.zones and not args.overlay:
        raise CalibrationError("--zones are drawn on the picture --overlay writes: give --overlay PNG too")
    image = _calibration_frame(args)
    if args.check:
        check = check_markers(image, Calibration.load(args.check), default_marker_mm(args.width_mm, args.height_mm))
        print(f"{args.check}: {check.describe()}")
        return 0 if check.steady else 1
    table = [(0.0, 0.0), (args.width_mm, 0.0), (args.width_mm, args.height_mm), (0.0, args.height_mm)]
    if args.points:
        try:
            pixels = [tuple(float(v) for v in p.split(",")) for p in args.points.split()]
        except ValueError:
            pixels = []
        if len(pixels) != 4 or any(len(p) != 2 for p in pixels):
            why = "give four x,y pixel points separated by spaces"
            raise CalibrationError(f"--points {args.points!r}: {why}")
        h, w = image.shape[:2]
        calibration: Calibration = calibrate_from_points(pixels, table, (w, h))
    else:
        calibration = calibrate_from_markers(image, default_marker_mm(args.width_mm, args.height_mm))
    overlay = None  # the overlay and its zones are refused before the calibration is written
    if args.overlay:
        overlay = _encoded(Path(args.overlay), draw_overlay(image, calibration, _overlay_zones(args)))
    calibration.save(args.out)
    print(f"wrote {args.out} ({calibration.method}, reprojection error {calibration.reprojection_error:.1f} mm)")
    if overlay is not None:
        _write_picture(Path(args.overlay), overlay)
        print(f"wrote {args.overlay}: check the outline, grid and zones by eye")
    return 0


def _overlay_zones(args: argparse.Namespace) -> list[Zone]:
    """The zones ``calibrate --overlay`` draws: from ``--zones`` (TOML), else laid out for ``--players``."""
    if not args.zones:
        return default_zones(args.players, args.width_mm, args.height_mm)
    try:
        config = tomllib.loads(Path(args.zones).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        raise CalibrationError(f"{args.zones}: cannot read the zones ({exc})") from None
    return load_zones(config)


def cmd_markers(args: argparse.Namespace) -> int:
    from vision.markers import write_markers

    paths = write_markers(args.out, args.size_mm)
    print(
        f"wrote {' '.join(map(str, paths))}: four markers {args.size_mm:g} mm wide, a page each; "
        "print at 100% (check the 50 mm bar), "
        "lay each one's centre on its corner of the table, and give calibrate the distances between the centres"
    )
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    marks = sub.add_parser("markers", help="draw the four calibration markers to print (PDF, a page each)")
    marks.add_argument("--out", required=True, help="the PDF to write (or NAME.png: a PNG a page)")
    marks.add_argument("--size-mm", type=float, default=60.0, help="each marker's width as printed (default 60)")
    marks.set_defaults(func=cmd_markers)

    cal = sub.add_parser("calibrate", help="map the camera to the table from its ArUco markers or four points")
    where = cal.add_mutually_exclusive_group(required=True)
    where.add_argument("--image", help="a photo of the table from the camera")
    where.add_argument("--source", help="a live source: usb:0, picamera, folder:PATH, video:PATH")
    what = cal.add_mutually_exclusive_group(required=True)
    what.add_argument("--out", help="the calibration file to write (JSON)")
    what.add_argument(
        "--check",
        metavar="CALIBRATION",
        help="check a calibration against the markers in view instead (exit status 1 unless it holds)",
    )
    cal.add_argument("--width-mm", type=_table_mm, default=800.0, help="between the left and right marker centres")
    cal.add_argument("--height-mm", type=_table_mm, default=600.0, help="between the top and bottom marker centres")
    cal.add_argument("--points", help='four pixels instead of markers, clockwise from top-left: "x,y x,y x,y x,y"')
    cal.add_argument("--overlay", help="write a picture of the calibration and zones to check by eye")
    cal.add_argument("--zones", help="a TOML file with [[zones]] (default: zones laid out for --players)")
    cal.add_argument("--players", type=int, default=4)
    cal.set_defaults(func=cmd_calibrate)

    vision = sub.add_parser("vision", help="read cards in photos; enrol a deck")
    vsub = vision.add_subparsers(dest="vision_command", required=True)

    ident = vsub.add_parser(
        "identify", help="find and read the cards in images (exit status 1 when an image could not be read)"
    )
    ident.add_argument("images", nargs="+", metavar="IMAGE")
    ident.add_argument("--deck", default=None, metavar="PROFILE", help="an enrolled deck profile (.npz)")
    ident.add_argument("--json", action="store_true", help="one JSON list, an object per image")
    ident.add_argument("--draw", default=None, metavar="DIR", help="write annotated pictures here")
    ident.add_argument("--threshold", type=_threshold, default=UNSURE, help=f"unsure below this confidence ({UNSURE})")
    ident.add_argument("--timings", action="store_true", help="say how long each stage of the reading took")
    ident.add_argument("--no-jokers", action="store_true", help="the game has no jokers: nothing is read as one")
    ident.set_defaults(func=cmd_identify)

    enr = vsub.add_parser("enrol", help="learn a deck from one photo per card (QH_1.jpg, 10C_a.png, ...)")
    enr.add_argument("folder", metavar="DIR")
    enr.add_argument("--out", required=True, metavar="PROFILE")
    enr.set_defaults(func=cmd_enrol)
