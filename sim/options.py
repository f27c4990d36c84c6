"""How a simulated table is set up: which stand-ins for the hardware, how fast, how late.

Kept apart from the simulation itself, so that the command line can offer its choices without
loading the renderer, vision or the fake board.
"""

from __future__ import annotations

from dataclasses import dataclass

CAMERAS = ("rendered", "reports")
SEATS = ("gpio", "bridge", "actions")


@dataclass(frozen=True)
class SimOptions:
    lateness_ms: int = 450  # the sequencer's bound for the camera
    buttons_lateness_ms: int = 20  # ... and for the buttons
    vision_latency_ms: tuple[int, int] = (60, 160)  # a card landing to its report (camera="reports")
    gpio_latency_us: tuple[int, int] = (30, 2000)
    max_cards: int = 20_000
    # Real-time pacing: 0 runs flat out on the virtual clock, 1.0 is a real table's pace.
    speed: float = 0.0
    camera: str = "reports"  # or "rendered": frames drawn and read by the table's vision
    seats: str = "actions"  # or "gpio": bots press buttons on mock pins; "bridge": on the fake board
    frame_size: tuple[int, int] = (1280, 720)  # the rendered camera's
    fps: float = 15.0
    reading_ms: tuple[int, int] = (25, 60)  # a rendered frame's exposure to its report reaching the core
    photo_finish: float = 0.0  # the chance a slap race is made close: the next slapper 1 µs to 2 ms behind

    def camera_report_ms(self) -> float:
        """The longest from a card put down or taken to the camera's report of it reaching the core."""
        if self.camera == "reports":
            return self.vision_latency_ms[1]
        from vision.tracker import TrackerConfig

        return TrackerConfig().report_frames * 1000 / self.fps + self.reading_ms[1]

    def __post_init__(self) -> None:
        if self.camera not in CAMERAS:
            raise ValueError(f"camera must be one of {', '.join(CAMERAS)}, not {self.camera!r}")
        if self.seats not in SEATS:
            raise ValueError(f"seats must be one of {', '.join(SEATS)}, not {self.seats!r}")
        if self.seats == "bridge" and self.speed <= 0:
            raise ValueError("the fake board runs on the host's clock: its simulation needs a real pace (speed > 0)")
