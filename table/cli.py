"""The ``cardtable`` command: simulate, run a table and send it commands, play out, replay, list rules.

Every failure a user can cause (a bad card, preset, rules key, deal or journal line) ends with one
line on stderr naming what was wrong, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from table.arguments import mqtt_arguments, overrides
from table.cards import counted
from table.commands import parse_command
from table.errors import CardtableError
from table.games import DEFAULT_GAME, GAMES, setup_game
from table.games.ers.beggar import GAME as BEGGAR_GAME
from table.games.ers.beggar import parse_deal, playout
from table.journal import JournalError, read_journal
from table.replay import Replay
from table.rules import RulesError, games_with_preset, is_preset_file, load_preset, shipped_presets


def _preset_from_here(preset: str | None) -> str | None:
    """A preset named on the command line; a preset file, found from where the command is run
    (in a configuration file, a preset file is found from that file's folder)."""
    if preset is not None and is_preset_file(preset):
        return str(Path(preset).expanduser().absolute())
    return preset


def cmd_run(args: argparse.Namespace) -> int:
    import logging
    import signal

    from table.config import ConfigError, game_overrides, load_config
    from table.live import LiveTable
    from table.terminal_view import TerminalView

    names = args.names.split(",") if args.names else None
    overrides = game_overrides(args.game, _preset_from_here(args.rules), names, args.seed)
    overrides["mqtt"] = {key: value for key, value in (("url", args.mqtt), ("table_id", args.table_id)) if value}
    try:
        config = load_config(args.config, overrides)
    except ConfigError as exc:
        raise ConfigError(f"{exc}{_names_as_read(args.config, overrides)}") from None
    if args.check:
        return _check(args.config, config)
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


def _names_as_read(path: str, overrides: dict[str, dict[str, Any]]) -> str:
    """How ``--names`` was read, where the configuration is refused with them and taken without."""
    from table.config import ConfigError, load_config

    names = overrides["seats"].get("names")
    if names is None:
        return ""
    try:
        load_config(path, {**overrides, "seats": {}})
    except ConfigError:
        return ""  # refused without them too: the names are not what is wrong
    listed = ", ".join(map(repr, names))
    spaced = len(names) == 1 and " " in names[0].strip()  # names meant to be several, not separated by commas
    hint = "; separate the names with commas" if spaced else ""
    return f" (--names was read as {counted(len(names), 'name')}: {listed}{hint})"


def _check(path: str, config: Any) -> int:
    """``run --check``: what the configuration sets up, then each part it names, opened, asked and
    closed (``table.hardware_check``); 2 when one is not ready."""
    from table.hardware_check import check_hardware

    seats = config.seats
    players, wired = len(seats.names), seats.wired()
    dark = f" (seat {players} dark)" if wired == players + 1 else f" (seats {players}-{wired - 1} dark)"
    print(
        f"{path}: {config.game.name} ({config.game.preset or 'its standard preset'}) for "
        f"{players} seats ({', '.join(seats.names)}) on {seats.backend}{dark if wired > players else ''}; "
        f"camera {config.camera.source} at {config.camera.width}x{config.camera.height}, {len(config.zones)} zones; "
        f"journal in {config.resolve(config.journal.folder)}"
    )
    found = check_hardware(config)
    for part in found:
        print(part.line())
    missing = [part.part for part in found if not part.ok]
    if missing:
        print(f"cardtable: error: not ready: {', '.join(missing)} (see above)", file=sys.stderr)
        return 2
    return 0


def cmd_send(args: argparse.Namespace) -> int:
    """One command to the table running on this configuration; 0 if it took it, 1 if it refused."""
    from table.config import journal_folder
    from table.control import SOCKET_NAME, send_command

    data: dict[str, Any] = {"command": args.command}
    for key in ("game", "rules", "names", "seed", "seat", "card"):
        if getattr(args, key, None) is not None:
            data[key] = getattr(args, key)
    if "rules" in data:  # the table runs on this host: a file named here is this file
        data["rules"] = _preset_from_here(data["rules"])
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


def cmd_stats(args: argparse.Namespace) -> int:
    """The standings and records of the games played on this table (``table.standings``)."""
    from table.config import journal_folder
    from table.standings import FILE, Standings

    folder = Path(args.journals) if args.journals else journal_folder(args.config)
    if folder.is_file():
        named = "--journals names" if args.journals else f"{args.config}: [journal] folder names"
        raise JournalError(f"{folder}: a file: {named} the folder of journals (cardtable replay reads one)")
    if not folder.is_dir():
        if args.config and not folder.exists():  # made when the table first runs
            print("no game played on this table yet")
            return 0
        raise JournalError(f"{folder}: no such journal folder")
    if not (folder / FILE).exists():  # nothing is made where nothing was kept: a folder named by mistake
        journals = sum(1 for _ in folder.glob("*.jsonl"))
        if not journals and args.journals:
            raise JournalError(f"{folder}: no journal here (no *.jsonl file), and no standings kept")
        if not journals:
            print("no game played on this table yet")
            return 0
        if not args.rebuild:
            print(f"no standings kept here yet: --rebuild reads the {counted(journals, 'journal')}")
            return 0
    if args.rebuild:
        standings, kept, problems = Standings.rebuilt(folder / FILE, folder)
    else:
        standings = Standings(folder / FILE)
    try:
        if args.rebuild:
            for problem in problems:
                print(f"cardtable: warning: left out: {problem}", file=sys.stderr)
            print(f"rebuilt from the journals: {kept} finished game(s)")
        _print_stats(standings, args.rebuild)
    except sqlite3.Error as exc:
        raise JournalError(
            f"{folder / FILE}: the standings cannot be read ({exc}); --rebuild makes them again"
        ) from None
    finally:
        standings.close()
    return 0


def _print_stats(standings: Any, rebuilt: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    board = Table("", "player", "games", "wins", title="Standings", title_justify="left")
    for place, s in enumerate(standings.standings(), start=1):
        board.add_row(str(place), s.name, str(s.games), str(s.wins))
    if not board.rows:
        print("no finished game yet" + ("" if rebuilt else " (--rebuild reads the journals)"))
        return
    console = Console(highlight=False)
    console.print(board)
    records = Table(title="Records", title_justify="left")
    records.add_column("record", no_wrap=True)  # the players' names wrap on a narrow terminal instead
    records.add_column("who")
    records.add_column("")
    for r in standings.records():
        records.add_row(r.what, r.who, r.value)
    console.print(records)


def cmd_playout(args: argparse.Namespace) -> int:
    preset = load_preset(BEGGAR_GAME, args.rules)
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
    """Replay a journal; one damaged past its set-up line is replayed as far as its lines prove,
    the damage named, and the exit status 1."""
    journal = read_journal(args.journal, salvage=True)
    for warning in journal.warnings:
        print(f"cardtable: warning: {warning}", file=sys.stderr)
    out = sys.stdout
    if args.pretty:  # told as the terminal told it: the players' names, the seats' lights
        from table.signals import Signals
        from table.terminal_view import TerminalView

        replay, signals, now = Replay(journal), Signals(journal.setup.players), [0]
        view = TerminalView(journal.player_names(), lights=lambda: signals.patterns(now[0]))
        for decision in replay.decisions():
            now[0] = decision.t_ns
            signals.decided(decision, replay.referee, decision.t_ns)
            view.show(decision, replay.referee)
    else:
        for line in Replay(journal).lines():
            out.write(line + "\n")
    if journal.damage is not None:
        print(f"cardtable: {journal.damage}; replayed the {len(journal.entries)} inputs before it", file=sys.stderr)
        return 1
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    game, preset = args.game, args.preset
    if game is None:  # a game named where a preset goes, or a preset only one game ships, is that game's
        owners = games_with_preset(preset) if preset is not None else []
        if preset in GAMES:
            game, preset = preset, None
        elif len(owners) == 1:
            game = owners[0]
        else:
            game = DEFAULT_GAME
    if preset is None and not args.set:
        for name in shipped_presets(game):
            print(f"{name:22} {load_preset(game, name).description}")
        return 0
    setup = setup_game(game, preset, overrides(args.set))
    print(json.dumps(setup.rules, indent=2, sort_keys=True))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardtable", description="A card table that referees.")
    sub = parser.add_subparsers(dest="command", required=True)

    # The simulator's own options are its parser's (``sim.cli``): a table never loads the simulator.
    sub.add_parser("sim", help="play a simulated game in the terminal (cardtable sim --help)", add_help=False)

    run = sub.add_parser("run", help="run a table from its configuration (see table.example.toml)")
    run.add_argument("--config", required=True, help="the table's TOML configuration")
    run.add_argument("--check", action="store_true", help="check the configuration and say what it sets up, then stop")
    run.add_argument("--max-seconds", type=float, default=None, help="stop after this long (default: never)")
    run.add_argument("--quiet", action="store_true", help="no line a decision in the terminal")
    run.add_argument("--game", choices=sorted(GAMES), help="play this game instead of the configuration's")
    run.add_argument("--rules", metavar="PRESET", help="with this preset (or preset file) instead")
    run.add_argument("--names", help='the seats\' names, clockwise from seat 0: "Ann,Bob,Cyd,Dee"')
    run.add_argument("--seed", type=int, help="a fixed seed for the games' chance")
    mqtt_arguments(run)
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
        change.add_argument("--rules", metavar="PRESET", help="a preset's name, or a preset file (found from here)")
        change.add_argument("--names", help='the seats\' names, clockwise from seat 0: "Ann,Bob,Cyd,Dee"')
        change.add_argument("--seed", type=int, help="a fixed seed for the games' chance")
    kinds.add_parser("pause", help="hold the game (the lights blink amber) until resume")
    kinds.add_parser("resume", help="go on after a pause (or: only the top card was laid while the table was down)")
    kinds.add_parser("end-game", help="end the game where it stands (the trading and bidding games): the scores decide")
    out = kinds.add_parser(
        "out-of-cards", help="ERS, the shedding game: this seat holds no card, though the referee counts some"
    )
    out.add_argument("--seat", type=int, required=True, help="the seat's number, 0 to one less than the seats")
    dead = kinds.add_parser(
        "out-of-turn", help="ERS with dead cards: the pile's top card was this seat's, laid out of turn"
    )
    dead.add_argument("--seat", type=int, required=True, help="the seat's number, 0 to one less than the seats")
    dead.add_argument("--card", required=True, help="the card it laid, as 2C, 10H, QS or RJ")
    send.set_defaults(func=cmd_send)

    league = sub.add_parser("league", help="every table on an MQTT broker, its game and its standings")
    league.add_argument("--mqtt", required=True, metavar="URL", help="the broker: mqtt://[USER:PASS@]HOST:PORT")
    league.set_defaults(func=cmd_league)

    stats = sub.add_parser("stats", help="the standings and records of the games this table played")
    where = stats.add_mutually_exclusive_group(required=True)
    where.add_argument("--config", help="the table's configuration (its journal folder)")
    where.add_argument("--journals", metavar="FOLDER", help="a journal folder")
    stats.add_argument("--rebuild", action="store_true", help="make the standings again from the journals")
    stats.set_defaults(func=cmd_stats)

    play = sub.add_parser("playout", help="play a Beggar-my-neighbour deal to its end")
    play.add_argument("--rules", default="beggar-my-neighbour")
    play.add_argument("--deal", required=True, help='hands top first, "P1/P2", A K Q J or - per card')
    play.add_argument("--json", action="store_true")
    play.set_defaults(func=cmd_playout)

    rep = sub.add_parser("replay", help="replay a journal: decisions then the final state, JSON lines")
    rep.add_argument("journal")
    rep.add_argument("--pretty", action="store_true", help="tell the game as the terminal did, with the players' names")
    rep.set_defaults(func=cmd_replay)

    rules = sub.add_parser("rules", help="list presets, or show one preset's rules")
    rules.add_argument("preset", nargs="?", help="a preset's name or file, or a game's name: its presets")
    rules.add_argument(
        "--game", choices=sorted(GAMES), help=f"the game (default: the one that ships the preset, else {DEFAULT_GAME})"
    )
    rules.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="change one rule (no preset: of the game's own)"
    )
    rules.set_defaults(func=cmd_rules)

    from vision.cli import add_commands as add_vision_commands

    add_vision_commands(sub)
    return parser


def _join_deal(argv: Sequence[str]) -> list[str]:
    """``--deal ---K-...``: a deal may start with '-', which argparse would take for an option."""
    out = list(argv)
    for i, arg in enumerate(out[:-1]):
        if arg == "--deal":
            out[i : i + 2] = [f"--deal={out[i + 1]}"]
            break
    return out


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:  # Ctrl-C while the simulator or the vision's networks load is an interruption too
        if argv[:1] == ["sim"]:
            from sim.cli import sim_parser  # loaded only for the simulator

            args = sim_parser().parse_args(argv[1:])
        else:
            args = build_parser().parse_args(_join_deal(argv))
        return int(args.func(args))
    except CardtableError as exc:  # every error meant for the user: one line, naming what was wrong
        print(f"cardtable: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("cardtable: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
