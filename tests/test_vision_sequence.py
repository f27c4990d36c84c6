"""The renderer as a camera, its frames read by the real pipeline and tracked into events."""

from __future__ import annotations

from sim.render import CardPlacement, SceneSource, SceneSpec
from table.cards import parse_card
from table.events import CardSeen
from vision.frames import FrameSource
from vision.identify import identify
from vision.tracker import CardTracker


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
