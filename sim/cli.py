"""``cardtable sim``: a game played by bots on the simulated table, in the terminal.

The ``cardtable`` command hands its ``sim`` arguments here, so that a real table, which never
simulates, never loads the simulator.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sim.bots import NAMES
from sim.games import SIMULATIONS
from sim.options import CAMERAS, SEATS, SimOptions
from sim.presses import MockPinSeats
from sim.truth import compare
from table.arguments import more_than_zero, mqtt_arguments, overrides
from table.errors import CardtableError
from table.games import DEFAULT_GAME, GAMES, setup_game
from table.journal import JournalWriter
from table.narration import Narrator
from table.referee import GameSetupError
from table.sound import LogPlayer, Sounds
from table.terminal_view import TerminalView


def sim_parser() -> argparse.ArgumentParser:
    """The ``cardtable sim`` command's arguments."""
    sim = argparse.ArgumentParser(prog="cardtable sim", description="Play a simulated game in the terminal.")
    sim.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES))
    sim.add_argument("--players", type=int, default=None, help="seats (default: the preset's, else 4)")
    sim.add_argument("--rules", default=None, help="preset name or preset file (default: the game's standard one)")
    sim.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override one rule")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--dealer", type=int, default=0)
    sim.add_argument("--fast", action="store_true", help="no pauses: run on the virtual clock flat out")
    sim.add_argument(
        "--speed", type=more_than_zero(float), default=8.0, help="times real pace when not --fast (default 8)"
    )
    sim.add_argument("--journal", default=None, help="write the game's journal to this new file")
    sim.add_argument("--sound-log", default=None, metavar="FILE", help="write the sound cues the table would play")
    sim.add_argument("--max-cards", type=more_than_zero(int), default=20_000)
    sim.add_argument(
        "--camera",
        choices=CAMERAS,
        default=None,
        help="rendered: every frame drawn and read by the table's vision (the default, but for the shedding game: "
        "its cards laid on their twins are not read yet); reports: the camera's reports made directly, many "
        "times faster",
    )
    sim.add_argument(
        "--seats",
        choices=SEATS,
        default="gpio",
        help="gpio: bots press buttons on gpiozero's mock pins (the default); bridge: on the fake board over a "
        "pseudo-terminal, at a real pace; actions: their gestures handed over made",
    )
    sim.add_argument(
        "--lateness-ms", type=int, default=450, help="how long the sequencer waits for late inputs (default 450)"
    )
    sim.add_argument("--quiet", action="store_true", help="print only the result")
    sim.add_argument(
        "--verbose", action="store_true", help="also print every change of turn, and the simulator's truth check"
    )
    mqtt_arguments(sim)
    sim.set_defaults(func=cmd_sim)
    return sim


def cmd_sim(args: argparse.Namespace) -> int:
    """Play the game the arguments set up; 1 if it stopped progressing, else 0."""
    setup = setup_game(args.game, args.rules, overrides(args.set), args.players, args.dealer, args.seed)
    speed = 0.0 if args.fast else args.speed
    camera = args.camera or SIMULATIONS[setup.game].DEFAULT_CAMERA
    try:
        options = SimOptions(
            lateness_ms=args.lateness_ms, max_cards=args.max_cards, speed=speed, camera=camera, seats=args.seats
        )
    except ValueError as exc:
        raise GameSetupError(str(exc)) from None
    pins = len(MockPinSeats.PINS)
    if options.seats == "gpio" and setup.players > pins:
        raise GameSetupError(
            f"the simulated GPIO pins serve {pins} seats, not {setup.players}: play more with --seats actions "
            "(gestures handed over made) or --seats bridge (the fake board)"
        )
    slowest = options.camera_report_ms()
    if args.lateness_ms <= slowest:
        raise GameSetupError(
            f"--lateness-ms {args.lateness_ms} is too short: the simulated camera reports cards up to "
            f"{slowest:.0f} ms after they land or are taken, and later cards could not be put in order"
        )
    names = [NAMES[s] if s < len(NAMES) else f"P{s}" for s in range(setup.players)]
    if args.sound_log and args.journal and Path(args.sound_log).resolve() == Path(args.journal).resolve():
        raise CardtableError(f"--sound-log and --journal name one file, {args.journal}: give each its own")
    try:
        sound_log = open(args.sound_log, "x", encoding="utf-8") if args.sound_log else None  # noqa: SIM115
    except FileExistsError:
        raise CardtableError(f"--sound-log {args.sound_log}: already exists; it is never written over") from None
    except OSError as exc:
        raise CardtableError(f"--sound-log {args.sound_log}: {exc.strerror}") from None
    view = None if args.quiet else TerminalView(names, verbose=args.verbose)
    sim = SIMULATIONS[setup.game](setup, options, on_decision=view.show if view else None)
    if view is not None:
        view.lights = lambda: sim.core.signals.patterns(sim.clock.monotonic_ns())
    journal = JournalWriter(args.journal, sim.setup, names=names) if args.journal else None
    sim.journal = journal
    publisher = _publisher(args, sim, names)
    if sound_log is not None:
        sounds = Sounds(LogPlayer(sound_log))
        sim.core.outputs.decisions.append(sounds.decided)
        sim.core.outputs.ticks.append(sounds.tick)
    try:
        with sketched(view, sim):
            result = sim.run()
    finally:
        if journal is not None:
            journal.close()
        if sound_log is not None:
            sound_log.close()
        if publisher is not None:
            publisher.stop()
    if result.abandoned:
        print(f"stopped after {result.cards_played} cards with no winner (--max-cards)")
        return 0
    if result.stuck is not None:
        print(f"stopped after {result.cards_played} cards with no winner: {result.stuck}")
        print(compare(sim))
        return 1
    narrator = view or Narrator(names)
    ended = [d for d in result.decisions if d.KIND in ("game-won", "game-over")]
    said = narrator.sentence(ended[-1], sim.referee) if ended else None
    played = sum(d.KIND == "card-played" for d in result.decisions)  # as the game's record counts them
    lost = sum(d.KIND == "life-lost" for d in result.decisions)  # the trading game's cards are shown, not played
    print(f"{said or 'The game is over.'} ({f'{played} cards played' if played else f'{lost} lives lost'})")
    if args.verbose:
        print(compare(sim))
    return 0


def _publisher(args: argparse.Namespace, sim: Any, names: list[str]) -> Any:
    """A simulated game on a dashboard exactly as a real one: its decisions and state on MQTT."""
    if not args.mqtt:
        return None
    from table.mqtt import TablePublisher, parse_url

    publisher = TablePublisher(parse_url(args.mqtt, args.table_id or "sim")).start()
    lights = lambda: sim.core.signals.patterns(sim.clock.monotonic_ns())  # noqa: E731
    sim.core.outputs.decisions.append(publisher.follow(sim.setup, names, lights))
    return publisher


@contextlib.contextmanager
def sketched(view: Any, sim: Any) -> Iterator[None]:
    """In a terminal, the table from above under the decisions' lines while the game runs."""
    if view is None or not view.console.is_terminal:
        yield
        return
    import time

    from rich.live import Live

    from table.table_sketch import TableSketch

    def progress() -> str:
        played = f"{sim.cards_played} cards, {sim.clock.monotonic_ns() / 1e9:.0f} s of play"
        return played + (f" at {sim.options.speed:g}x" if sim.options.speed else " flat out")

    sketch = TableSketch(view.names, lambda: sim.referee, view.lights, progress)
    with Live(sketch, console=view.console, auto_refresh=False) as live:
        shown = [0.0]

        def refresh(_decision: Any, _referee: Any) -> None:
            if time.monotonic() - shown[0] >= 0.1:  # ten pictures a second at most, however fast the game
                shown[0] = time.monotonic()
                live.refresh()

        sim.core.outputs.decisions.append(refresh)
        yield
        live.refresh()
