"""``cardtable vision ...``: read cards in photos, and enrol a deck."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2

from vision.profile import EnrolError, enrol, load_deck
from vision.reader import UNSURE

USER_ERRORS = (EnrolError,)


def cmd_identify(args: argparse.Namespace) -> int:
    from vision.identify import builtin_deck, draw, identify

    deck = load_deck(args.deck) if args.deck else builtin_deck()
    if args.draw:
        Path(args.draw).mkdir(parents=True, exist_ok=True)
    results = []
    for name in args.images:
        image = cv2.imread(name) if Path(name).is_file() else None
        if image is None:
            results.append({"image": name, "error": "cannot read the file as an image", "cards": []})
            continue
        cards = identify(image, deck, args.threshold)
        results.append({"image": name, "cards": [c.to_json() for c in cards]})
        if args.draw:
            cv2.imwrite(str(Path(args.draw) / (Path(name).stem + ".png")), draw(image, cards))
    if args.json:
        print(json.dumps(results))
    else:
        for result in results:
            if "error" in result:
                print(f"{result['image']}: error: {result['error']}")
                continue
            found = ", ".join(f"{c['code'] or 'unsure'} ({c['confidence']:.2f})" for c in result["cards"])
            print(f"{result['image']}: {found or 'no cards'}")
    return 0


def cmd_enrol(args: argparse.Namespace) -> int:
    report = enrol(args.folder, args.out)
    for line in report.lines():
        print(line)
    print(f"wrote {args.out}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    vision = sub.add_parser("vision", help="read cards in photos; enrol a deck")
    vsub = vision.add_subparsers(dest="vision_command", required=True)

    ident = vsub.add_parser("identify", help="find and read the cards in images")
    ident.add_argument("images", nargs="+", metavar="IMAGE")
    ident.add_argument("--deck", default=None, metavar="PROFILE", help="an enrolled deck profile (.npz)")
    ident.add_argument("--json", action="store_true", help="one JSON list, an object per image")
    ident.add_argument("--draw", default=None, metavar="DIR", help="write annotated pictures here")
    ident.add_argument("--threshold", type=float, default=UNSURE, help=f"unsure below this confidence ({UNSURE})")
    ident.set_defaults(func=cmd_identify)

    enr = vsub.add_parser("enrol", help="learn a deck from one photo per card (QH_1.jpg, 10C_a.png, ...)")
    enr.add_argument("folder", metavar="DIR")
    enr.add_argument("--out", required=True, metavar="PROFILE")
    enr.set_defaults(func=cmd_enrol)
