"""The ``cardtable`` command: simulate, run a table and send it commands, play out, replay, list rules.

Every failure a user can cause (a bad card, preset, rules key, deal or journal line) ends with one
line on stderr naming what was wrong, and exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from sim.options import CAMERAS, SEATS
from table.buttons import ButtonError
from table.cards import CardError
from table.commands import CommandError, parse_command
from table.config import ConfigError
from table.control import ControlError
from table.events import EventError
from table.games import GAMES, setup_game
from table.games.beggar import DealError, parse_deal, playout
from table.journal import JournalError, JournalWriter, read_journal
from table.lights import LightError
from table.mqtt import MqttError
from table.referee import GameSetupError
from table.replay import Replay
from table.rules import RulesError, load_preset, parse_override, shipped_presets

USER_ERRORS: tuple[type[Exception], ...] = (
    CardError,
    EventError,
    RulesError,
    DealError,
    JournalError,
    GameSetupError,
    ConfigError,
    ButtonError,
    LightError,
    ControlError,
    CommandError,
    MqttError,
)


def _overrides(items: Sequence[str]) -> dict[str, Any]:
    return dict(parse_override(item) for item in items)


def cmd_sim(args: argparse.Namespace) -> int:
    from sim.bots import NAMES
    from sim.games import SIMULATIONS
    from sim.options import SimOptions
    from sim.truth import compare
    from table.terminal_view import TerminalView

    setup = setup_game(args.game, args.rules, _overrides(args.set), args.players, args.dealer, args.seed)
    speed = 0.0 if args.fast else args.speed
    camera = args.camera or SIMULATIONS[setup.game].DEFAULT_CAMERA
    try:
        options = SimOptions(
            lateness_ms=args.lateness_ms, max_cards=args.max_cards, speed=speed, camera=camera, seats=args.seats
        )
    except ValueError as exc:
        raise GameSetupError(str(exc)) from None
    slowest = options.camera_report_ms()
    if args.lateness_ms <= slowest:
        raise GameSetupError(
            f"--lateness-ms {args.lateness_ms} is too short: the simulated camera reports cards up to "
            f"{slowest:.0f} ms after they land or are taken, and later cards could not be put in order"
        )
    names = [NAMES[s] if s < len(NAMES) else f"P{s}" for s in range(setup.players)]
    view = None if args.quiet else TerminalView(names, verbose=args.verbose)
    sim = SIMULATIONS[setup.game](setup, options, on_decision=view.show if view else None)
    if view is not None:
        view.lights = lambda: sim.core.signals.patterns(sim.clock.monotonic_ns())
    journal = JournalWriter(args.journal, sim.setup) if args.journal else None
    sim.journal = journal
    publisher = _publisher(args, sim, names)
    try:
        with _sketched(view, sim):
            result = sim.run()
    finally:
        if journal is not None:
            journal.close()
        if publisher is not None:
            publisher.stop()
    if result.abandoned:
        print(f"stopped after {result.cards_played} cards with no winner (--max-cards)")
        return 0
    if result.stuck is not None:
        print(f"stopped after {result.cards_played} cards with no winner: {result.stuck}")
        print(compare(sim))
        return 1
    won = result.winners or ()
    winners = " and ".join(f"{names[s]} (seat {s})" for s in won) or "nobody"
    print(f"winner: {winners} after {result.cards_played} cards")
    if not args.quiet:
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
def _sketched(view: Any, sim: Any) -> Iterator[None]:
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


def cmd_run(args: argparse.Namespace) -> int:
    import logging
    import signal

    from table.config import game_overrides, load_config
    from table.live import LiveTable
    from table.terminal_view import TerminalView

    names = args.names.split(",") if args.names else None
    overrides = game_overrides(args.game, args.rules, names, args.seed)
    overrides["mqtt"] = {key: value for key, value in (("url", args.mqtt), ("table_id", args.table_id)) if value}
    config = load_config(args.config, overrides)
    if args.check:
        seats = config.seats
        print(
            f"{args.config}: {config.game.name} ({config.game.preset or 'its standard preset'}) for "
            f"{len(seats.names)} seats ({', '.join(seats.names)}) on {seats.backend}; camera {config.camera.source} "
            f"at {config.camera.width}x{config.camera.height}, {len(config.zones)} zones; "
            f"journal in {config.resolve(config.journal.folder)}"
        )
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    view = None if args.quiet else TerminalView(list(config.seats.names))
    table = LiveTable(config, on_decision=view.show if view else None, overrides=overrides)
    if view is not None:
        view.lights = table.lights_now
        view.close_call_ns = table.close_call_ns
        view.names = list(table.config.seats.names)  # as changes kept from an earlier run left them
        table.on_config = lambda changed: setattr(view, "names", list(changed.seats.names))
    signal.signal(signal.SIGTERM, lambda *_: table.stop())
    try:
        table.run(max_seconds=args.max_seconds)
    finally:
        print(table.summary(), file=sys.stderr)
    return 0


def cmd_send(args: argparse.Namespace) -> int:
    """One command to the table running on this configuration; 0 if it took it, 1 if it refused."""
    from table.config import journal_folder
    from table.control import SOCKET_NAME, send_command

    data: dict[str, Any] = {"command": args.command}
    for key in ("game", "rules", "names", "seed", "seat"):
        if getattr(args, key, None) is not None:
            data[key] = getattr(args, key)
    parse_command(data)  # a bad one is named here, before the table is asked
    ok, message = send_command(journal_folder(args.config) / SOCKET_NAME, data)
    print(message if ok else f"refused: {message}", file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


def cmd_league(args: argparse.Namespace) -> int:
    """Every table on the broker, its game and its standings."""
    from rich.console import Console

    from table.league import collect, standings
    from table.mqtt import parse_url

    try:
        tables = collect(parse_url(args.mqtt, "league"))
    except ConnectionError as exc:
        print(f"cardtable: error: {exc}", file=sys.stderr)
        return 2
    if not tables:
        print("no table has published on this broker")
        return 0
    Console(highlight=False).print(standings(tables))
    return 0


def cmd_playout(args: argparse.Namespace) -> int:
    preset = load_preset("ers", args.rules)
    if preset.values.get("slaps", True):
        raise RulesError(f"playout needs a preset without slaps; {args.rules!r} has slaps on")
    hands = parse_deal(args.deal)
    result = playout(hands, runout=preset.values.get("runout", "next-player"))
    if args.json:
        print(json.dumps(result.to_json(), sort_keys=True))
    else:
        end = f"seat {result.winner} wins" if result.outcome == "win" else "the game never ends (cycle)"
        print(f"{result.cards} cards, {result.tricks} tricks: {end}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    journal = read_journal(args.journal)
    for warning in journal.warnings:
        print(f"cardtable: warning: {warning}", file=sys.stderr)
    out = sys.stdout
    for line in Replay(journal).lines():
        out.write(line + "\n")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    if args.preset is None:
        for name in shipped_presets(args.game):
            print(f"{name:22} {load_preset(args.game, name).description}")
        return 0
    setup = setup_game(args.game, args.preset, _overrides(args.set))
    print(json.dumps(setup.rules, indent=2, sort_keys=True))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardtable", description="A card table that referees.")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("sim", help="play a simulated game in the terminal")
    sim.add_argument("--game", default="ers", choices=sorted(GAMES))
    sim.add_argument("--players", type=int, default=None, help="seats (default: the preset's, else 4)")
    sim.add_argument("--rules", default=None, help="preset name or preset file (default: the game's standard one)")
    sim.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override one rule")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--dealer", type=int, default=0)
    sim.add_argument("--fast", action="store_true", help="no pauses: run on the virtual clock flat out")
    sim.add_argument("--speed", type=float, default=8.0, help="times real pace when not --fast (default 8)")
    sim.add_argument("--journal", default=None, help="write the game's journal to this new file")
    sim.add_argument("--max-cards", type=int, default=20_000)
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
    sim.add_argument("--verbose", action="store_true", help="also print every change of turn")
    _mqtt_arguments(sim)
    sim.set_defaults(func=cmd_sim)

    run = sub.add_parser("run", help="run a table from its configuration (see table.example.toml)")
    run.add_argument("--config", required=True, help="the table's TOML configuration")
    run.add_argument("--check", action="store_true", help="check the configuration and say what it sets up, then stop")
    run.add_argument("--max-seconds", type=float, default=None, help="stop after this long (default: never)")
    run.add_argument("--quiet", action="store_true", help="no line a decision in the terminal")
    run.add_argument("--game", choices=sorted(GAMES), help="play this game instead of the configuration's")
    run.add_argument("--rules", metavar="PRESET", help="with this preset (or preset file) instead")
    run.add_argument("--names", help='the seats\' names, clockwise from seat 0: "Ann,Bob,Cyd,Dee"')
    run.add_argument("--seed", type=int, help="a fixed seed for the games' chance")
    _mqtt_arguments(run)
    run.set_defaults(func=cmd_run)

    send = sub.add_parser("send", help="send a command to the running table (cardtable send --config F pause)")
    send.add_argument("--config", required=True, help="the running table's configuration")
    kinds = send.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for kind, says in (
        ("new-game", "abandon the game and deal a new one now, with any changes given"),
        ("set", "change the games dealt after this one"),
    ):
        change = kinds.add_parser(kind, help=says)
        change.add_argument("--game", choices=sorted(GAMES), help="another game (with its standard preset)")
        change.add_argument("--rules", metavar="PRESET", help="a preset's name, or a preset file on the table's host")
        change.add_argument("--names", help='the seats\' names, clockwise from seat 0: "Ann,Bob,Cyd,Dee"')
        change.add_argument("--seed", type=int, help="a fixed seed for the games' chance")
    kinds.add_parser("pause", help="hold the game (the lights blink amber) until resume")
    kinds.add_parser("resume", help="go on after a pause")
    out = kinds.add_parser(
        "out-of-cards", help="ERS, the shedding game: this seat holds no card, though the referee counts some"
    )
    out.add_argument("--seat", type=int, required=True, help="the seat's number, 0 to one less than the seats")
    send.set_defaults(func=cmd_send)

    league = sub.add_parser("league", help="every table on an MQTT broker, its game and its standings")
    league.add_argument("--mqtt", required=True, metavar="URL", help="the broker: mqtt://[USER:PASS@]HOST:PORT")
    league.set_defaults(func=cmd_league)

    play = sub.add_parser("playout", help="play a Beggar-my-neighbour deal to its end")
    play.add_argument("--rules", default="beggar-my-neighbour")
    play.add_argument("--deal", required=True, help='hands top first, "P1/P2", A K Q J or - per card')
    play.add_argument("--json", action="store_true")
    play.set_defaults(func=cmd_playout)

    rep = sub.add_parser("replay", help="replay a journal: decisions then the final state, JSON lines")
    rep.add_argument("journal")
    rep.set_defaults(func=cmd_replay)

    rules = sub.add_parser("rules", help="list presets, or show one preset's rules")
    rules.add_argument("preset", nargs="?")
    rules.add_argument("--game", default="ers", choices=sorted(GAMES))
    rules.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    rules.set_defaults(func=cmd_rules)

    from vision.cli import add_commands as add_vision_commands

    add_vision_commands(sub)
    return parser


def _mqtt_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mqtt", metavar="URL", help="publish to this broker: mqtt://[USER:PASS@]HOST:PORT")
    parser.add_argument("--table-id", help="the table's name in the MQTT topics (cardtable/ID/...)")


def _join_deal(argv: Sequence[str]) -> list[str]:
    """``--deal ---K-...``: a deal may start with '-', which argparse would take for an option."""
    out = list(argv)
    for i, arg in enumerate(out[:-1]):
        if arg == "--deal":
            out[i : i + 2] = [f"--deal={out[i + 1]}"]
            break
    return out


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(_join_deal(sys.argv[1:] if argv is None else argv))
    from vision.cli import USER_ERRORS as VISION_ERRORS

    try:
        return int(args.func(args))
    except (*USER_ERRORS, *VISION_ERRORS) as exc:
        print(f"cardtable: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("cardtable: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
