"""The simulator's overhead camera: the cards as they really lie, drawn by the renderer and read
by the table's own vision (``table.frame_reports``), frame by frame on the simulation's clock.

The simulation says what players do with the cards (``lay``, ``turn_up``, ``take``, ``nudge``);
every ``1/fps`` of simulated time the camera draws the table as it lies and reads it. A table
where nothing moved is drawn the same, so its picture is drawn once and read once: the frame
is the same array, and the reader's answer for it cannot differ.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import numpy as np

from sim.layout import Place, TableLayout
from sim.render import CardPlacement, SceneSpec, render_scene
from table.controller import FrameReport
from table.frame_reports import FrameReader, frame_reader
from vision.seen import SeenCard


@dataclass(frozen=True)
class Lying:
    """A card on the table: where, in which zone, and whose."""

    place: Place
    card: CardPlacement


@dataclass
class RenderedCamera:
    layout: TableLayout
    seed: int
    fps: float = 15.0
    table: str = "felt"
    style: str = "classic"
    noise: float = 2.0
    lying: list[Lying] = field(default_factory=list)  # bottom first: later cards lie on earlier ones
    renders: int = 0  # pictures drawn (once a change)
    reads: int = 0  # pictures read by vision

    def __post_init__(self) -> None:
        from vision.cores import use_one_core

        use_one_core()  # as the table's camera thread reads: one core, the same answers on any machine
        self.rng = random.Random(f"{self.seed}:camera")
        self.reader: FrameReader = frame_reader(self.layout.calibration(), self.layout.zones)
        read = self.reader.read

        def read_once(image: np.ndarray) -> list[SeenCard]:
            if image is not self._read_image:
                self._read_image, self._readings = image, read(image)
                self.reads += 1
            return self._readings

        self.reader.read = read_once
        self._image: np.ndarray | None = None
        self._read_image: np.ndarray | None = None
        self._readings: list[SeenCard] = []

    @property
    def interval_ns(self) -> int:
        return round(1e9 / self.fps)

    # ------------------------------------------------------------------ what the players do

    def lay(self, code: str, place: Place, offset: int = 0) -> None:
        """A card put down face up (or ``"back"``: face down) on top of whatever lies there."""
        self.lay_at(place, self.layout.pose(code, place, self.rng, offset))

    def lay_at(self, place: Place, card: CardPlacement) -> None:
        """``lay``, the card put down just so (where and how turned)."""
        self.lying.append(Lying(place, card))
        self._image = None

    def turn_up(self, place: Place, code: str) -> None:
        """The top card of ``place`` turned face up where it lies (a king shown, the reveal)."""
        for n in range(len(self.lying) - 1, -1, -1):
            if self.lying[n].place == place:
                self.lying[n] = Lying(place, replace(self.lying[n].card, code=code))
                self._image = None
                return
        self.lay(code, place)

    def tuck(self, place: Place) -> None:
        """A card slid face down under the cards on ``place`` (a burned card under the pile)."""
        under = next((n for n, c in enumerate(self.lying) if c.place == place), len(self.lying))
        self.lying.insert(under, Lying(place, self.layout.pose("back", place, self.rng)))
        self._image = None

    def take(self, place: Place | None = None) -> None:
        """Every card on ``place`` picked up (all of the table's, with None)."""
        self.lying = [c for c in self.lying if place is not None and c.place != place]
        self._image = None

    def lift(self, place: Place) -> None:
        """The top card of ``place`` picked up (a card taken back)."""
        for n in range(len(self.lying) - 1, -1, -1):
            if self.lying[n].place == place:
                del self.lying[n]
                self._image = None
                return

    def nudge(self, place: Place) -> None:
        """The top card of ``place`` straightened or moved a little, as a player does when the
        table asks to see it again."""
        for n in range(len(self.lying) - 1, -1, -1):
            if self.lying[n].place == place:
                self.lying[n] = Lying(place, self.layout.pose(self.lying[n].card.code, place, self.rng))
                self._image = None
                return

    def top(self, place: Place) -> str | None:
        return next((c.card.code for c in reversed(self.lying) if c.place == place), None)

    # ------------------------------------------------------------------------- the camera

    def frame(self, t_ns: int) -> FrameReport:
        """The frame exposed at ``t_ns``, drawn and read."""
        if self._image is None:
            layout = self.layout
            cards = tuple(c.card for c in self.lying)
            # The same seed for every picture of the game: the same light, and a still table the same.
            spec = SceneSpec(
                layout.width, layout.height, self.table, cards, self.style, noise=self.noise, seed=self.seed
            )
            self._image, _ = render_scene(spec)
            self.renders += 1
        return self.reader.report(self._image, t_ns)


def pile_played(seed: int, steps: tuple[str, ...], table: str = "felt") -> list[str]:
    """The cards the table's own reader sees played on the rendered camera's pile, each step
    given five frames: a card laid, "twin" (the last card's twin from the other deck laid on it)
    or "moved" (the top card moved). How well the table tells twins from moved cards."""
    from table.events import CardSeen

    camera = RenderedCamera(TableLayout(4, 1280, 720), seed, table=table)
    played: list[str] = []
    t, last = 0, ""
    for step in steps:
        if step == "moved":
            camera.nudge(("pile", None))
        else:
            last = last if step == "twin" else step
            camera.lay(last, ("pile", None))
        for _ in range(5):
            played += [str(e.card) for e in camera.frame(t).events if isinstance(e, CardSeen)]
            t += camera.interval_ns
    return played
