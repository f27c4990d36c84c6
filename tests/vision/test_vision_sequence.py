"""The renderer as a camera, its frames read by the real pipeline and tracked into events."""

from __future__ import annotations

import pytest

from sim.hands import HandPlacement
from sim.render import CardPlacement, SceneSource, SceneSpec, render_scene
from table.cards import parse_card
from table.events import CardSeen
from vision.frames import FrameSource
from vision.identify import identify
from vision.tracker import CardTracker

pytestmark = pytest.mark.slow


def test_rendered_frames_of_two_cards_played_become_two_events_dated_by_their_first_frames() -> None:
    """An empty table, a queen of hearts landing (her first frame blurred, read unsure), then a
    seven of clubs laid over her (its first frame blurred too): each is placed once, stamped with
    the frame it appeared in; the queen under the seven is never what the pile shows on top."""
    queen = CardPlacement("QH", 380, 300, 12.0, 200)
    seven = CardPlacement("7C", 420, 320, -25.0, 200)
    specs = [SceneSpec(seed=n, noise=3.0) for n in range(2)]
    specs += [SceneSpec(cards=(queen,), seed=2, noise=3.0, blur=3.0)]
    specs += [SceneSpec(cards=(queen,), seed=n, noise=3.0) for n in range(3, 6)]
    specs += [SceneSpec(cards=(queen, seven), seed=6, noise=3.0, blur=3.0)]
    specs += [SceneSpec(cards=(queen, seven), seed=n, noise=3.0) for n in range(7, 10)]
    source = SceneSource(specs, fps=15.0, start_ns=1_000_000_000)
    assert isinstance(source, FrameSource) and not source.lost
    tracker, events = CardTracker(), []
    for frame in source:
        events += tracker.update(frame.t_ns, identify(frame.image))
    assert source.ended and sorted(c.code for c in source.truth[9]) == ["7C", "QH"]
    at = [1_000_000_000 + round(n * 1e9 / 15.0) for n in range(10)]
    assert events == [
        CardSeen(at[2], "camera", parse_card("QH"), "pile"),
        CardSeen(at[6], "camera", parse_card("7C"), "pile"),
    ]


@pytest.mark.parametrize(
    ("table", "skin"), [("felt", "pale"), ("wood", "medium"), ("paper", "light"), ("grey", "dark")]
)
def test_a_hand_reaching_over_the_pile_and_across_the_table_makes_no_event(table: str, skin: str) -> None:
    """A hand comes in from the table's edge, covers most of the queen on the pile for four
    frames (a quarter of a second), and goes; another sweeps across the empty half of the table. The
    queen is placed once, when she lands; the hands are no card, and hide none long enough to
    take it away (rendered frames through the real pipeline and tracker)."""
    queen = CardPlacement("QH", 400, 300, 12.0, 200)
    path = [(760, 560), (620, 470), (470, 360), (410, 310), (400, 300), (470, 360), (640, 480), (790, 590)]
    specs = [SceneSpec(table=table, cards=(queen,), seed=n, noise=3.0) for n in range(3)]
    specs += [
        SceneSpec(table=table, cards=(queen,), seed=3 + n, noise=3.0, hands=(HandPlacement(x, y, 40.0, 260, skin),))
        for n, (x, y) in enumerate(path)
    ]
    sweep = [(80 + 90 * n, 120 + 10 * n) for n in range(8)]  # across the top of the table, over nothing
    specs += [
        SceneSpec(table=table, cards=(queen,), seed=20 + n, noise=3.0, hands=(HandPlacement(x, y, -80.0, 240, skin),))
        for n, (x, y) in enumerate(sweep)
    ]
    specs += [SceneSpec(table=table, cards=(queen,), seed=40 + n, noise=3.0) for n in range(3)]
    source = SceneSource(specs, fps=15.0)
    covered = [source_truth.visible for source_truth in (render_scene(s)[1][0] for s in specs[3:11])]
    assert min(covered) < 0.3 and sum(v < 0.5 for v in covered) == 4  # the hand does hide her
    tracker, events = CardTracker(), []
    for frame in source:
        events += tracker.update(frame.t_ns, identify(frame.image))
    assert events == [CardSeen(0, "camera", parse_card("QH"), "pile")]
