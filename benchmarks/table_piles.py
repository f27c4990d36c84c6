"""Cards thrown on the pile as the table's camera sees them in a game: each card reported or not.

A whole game (``python -m benchmarks games``) loses count at the first card the camera misreads,
and most of its cards land on the pile: thrown at any angle, the cards under them showing a
corner or an edge, at the game's camera scale (1280 x 720, cards 180 pixels tall). Here cards are
laid one at a time on the rendered table camera's pile (``sim.rendered_camera``, the simulator's
layout) and read by the table's own frame reader (``table.frame_reports``: identify, then the
tracker), five frames a card, as the table runs: a card is right when the table reports it and
nothing else, wrong when it reports another card, missed when it reports nothing.

The benchmark's piles (seeds from 1) are never tuned on; the pile rules are tuned on others
(seeds from ``TUNING``).
"""

from __future__ import annotations

import random
import zlib
from collections import Counter

from sim.rendered_camera import RenderedCamera
from table.events import CardSeen
from vision.cores import use_one_core

PILES = 24  # piles a design, each of 3 to 6 cards
TUNING = 5001  # the first seed of the piles the pile rules are tuned on
TABLES = ("felt", "wood", "carpet", "grey", "cloth", "limed")
FRAMES = 5  # frames a card is given before the next lands


def pile_verdicts(style: str, first: int, count: int = PILES) -> Counter[str]:
    """Every card laid on ``count`` piles of a design (seeds from ``first``): right, wrong, missed."""
    from sim.layout import TableLayout

    tally: Counter[str] = Counter()
    deck = [rank + suit for rank in ("A", *map(str, range(2, 11)), "J", "Q", "K") for suit in "CDHS"]
    for n in range(first, first + count):
        seed = zlib.crc32(f"{style}:{n}".encode())
        rng = random.Random(seed)
        camera = RenderedCamera(TableLayout(4, 1280, 720), seed, table=TABLES[n % len(TABLES)], style=style)
        t = 0
        for code in rng.sample(deck, rng.randint(3, 6)):
            camera.lay(code, ("pile", None))
            seen = []
            for _ in range(FRAMES):
                seen += [str(e.card) for e in camera.frame(t).events if isinstance(e, CardSeen)]
                t += camera.interval_ns
            tally["right" if seen == [code] else "missed" if not seen else "wrong"] += 1
    return tally


def report(title: str, tally: Counter[str]) -> None:
    total = sum(tally.values())
    parts = "  ".join(f"{k} {tally[k] / max(1, total):6.1%}" for k in ("right", "wrong", "missed"))
    print(f"  {title}: {total} cards   {parts}")


def main(tuning: bool = True) -> None:
    from sim.render import DECK_STYLES

    use_one_core()  # as the table's camera thread reads
    print(f"Cards thrown on the table camera's pile (1280x720, {PILES} piles a design), as the table reports them:")
    for style in DECK_STYLES:
        report(f"{style:8}", pile_verdicts(style, 1))
    if tuning:
        print(f"The same, on the piles the pile rules are tuned on (seeds from {TUNING}):")
        for style in DECK_STYLES:
            report(f"{style:8}", pile_verdicts(style, TUNING))
