"""The live table: the real parts of a configuration wired to the core, on the host's clock.

One inbox takes every input as it comes: button edges (queued by gpiozero's thread or the
bridge's), the camera reader's report on each frame (its own thread: reading a frame takes
tens of milliseconds, and a press must not wait for it), and faults. The loop sleeps on the inbox
until an input comes or the core's next wakeup, hands the input to the core, and the core's
decisions reach the lights and the terminal before the loop sleeps again.

Games follow one another: ``NEXT_GAME_S`` after one ends, the next starts, the deal passing on,
each with a journal file of its own in the configured folder. Every button held together
abandons the game and offers the presets on the buttons (``table.preset_menu``); commands on the
control socket (``cardtable send``: ``table.control``) deal a new game, change the preset, the
game or the names, or pause. What they change is kept in the journal folder (``changes.json``)
and outlives a restart. Nothing a player or a part does stops the loop: a camera that cannot be
opened or stops is a fault (the game pauses and the reader keeps trying), a frame that cannot be
read is left out and logged, a bad command is refused with its reason.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table import command_answers
from table.buttons import CLOSE_CALL_NS, ButtonLevel, EdgesVouched, RawEdge, drain
from table.camera_reader import CameraReader
from table.commands import PAUSED_PART, CommandRequest
from table.config import ConfigError, TableConfig, game_overrides
from table.control import SOCKET_NAME, ControlError, ControlServer, claim
from table.controller import CAMERA, FrameReport, Outputs, TableCore
from table.decisions import Decision
from table.faults import Fault
from table.game_series import GameSeries
from table.games import GAMES, GameSetup
from table.journal import JournalError, JournalWriter
from table.kept_changes import KeptChanges
from table.lights import OFF, Pattern
from table.loop_stats import LoopStats, troubles
from table.mqtt import TablePublisher
from table.narration import Narrator
from table.notify import Notifier
from table.pin_watch import PinWatch
from table.preset_menu import PresetMenu
from table.referee import GameSetupError, Referee
from table.replay import state_digest
from table.resume import last_number, newest_journal
from table.rules import RulesError, shipped_presets
from table.seat_parts import SEAT_BOARD, open_seat_parts
from table.sound import table_sounds
from table.standings import FILE as STANDINGS
from table.standings import Standings
from table.units import MS

log = logging.getLogger("cardtable")

NEXT_GAME_S = 10.0  # from one game's end to the next game's deal
CARRIED = (CAMERA, SEAT_BOARD, PAUSED_PART)  # faults that outlive a game (a button's is the game's own)


class LiveTable:
    """A configured table running on its real parts (or gpiozero's mock pins, in a test)."""

    def __init__(
        self,
        config: TableConfig,
        on_decision: Callable[[Decision, Referee], None] | None = None,
        pin_factory: object | None = None,
        serial_factory: Callable[..., object] | None = None,
        overrides: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        """``overrides``: what the command line changed in ``config`` (they win over the changes
        kept in the journal folder, which apply to the rest)."""
        self.config = config
        self.on_config: Callable[[TableConfig], None] | None = None  # the game, preset or names changed
        self.menu: PresetMenu | None = None  # open between games, after every button was held
        self._deal_now = False
        self._finished: TableCore | None = None  # the game a restart found over: the next may carry from it
        self._offered: int | None = None
        self.inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.stop_event = threading.Event()
        self.on_decision = on_decision
        self.stats = LoopStats()
        self._folder = config.resolve(config.journal.folder)
        self.offset_ns = 0  # the table's clock less the host's: 0 but after a restart of the host (``_now``)
        self._wired = config.seats.wired()  # the seats with a button; the players sit at the first of them
        claim(self._folder / SOCKET_NAME)  # another table on this journal folder: refused before any part opens
        self.series = GameSeries(last_number(self._folder))
        self.seats = open_seat_parts(config, self.inbox, pin_factory, serial_factory)
        self._parts = list(self.seats.opened)
        self._buttons = self.seats.buttons
        self._button_names = self.seats.button_names
        self._show = self.seats.show
        self._exact_edges = self.seats.exact_edges
        self._link_ns = self.seats.link_ns
        self.pins = PinWatch(self._buttons, self._button_names)
        self.camera = CameraReader(config, self.inbox, self.stop_event)
        settings = config.mqtt_settings()
        self.publisher: TablePublisher | None = None if settings is None else TablePublisher(settings)
        if self.publisher is not None:
            self.publisher.on_command = self.inbox.put  # commands from the broker, taken like any input
        self.notifier = Notifier()
        self.sounds = table_sounds(config.sound.on, config.sound.volume)
        self._kept = KeptChanges(self._folder, self._wired, self._exact_edges)
        self.config = self._kept.kept(config, overrides or {})
        if self.config is not config:
            log.warning("%s: the changes made on the running table apply: %s", self._kept.path, self._describe())

    @property
    def _seat_source(self) -> str:
        """The source the seats' inputs are stamped with: "gpio" or "bridge"."""
        return self.config.seats.backend

    def stop(self) -> None:
        """Ask the loop to end (safe from any thread or a signal handler)."""
        self.stop_event.set()
        self.inbox.put(None)

    def run(self, max_seconds: float | None = None) -> None:
        """Play games one after another until ``stop`` (or ``max_seconds``)."""
        core: TableCore | None = None
        try:
            self._listen()
            core = self._resumed(time.monotonic_ns()) or self._new_game(self.config.game.dealer, self._now())
            if self.publisher is not None:
                self._parts.append(self.publisher.start())  # stopped with the other parts: "offline"
                narrator = Narrator(self._names(core))
                self.publisher.recount(narrator.told(d, core.referee) for d in core.decisions)  # a resumed game's
                self._publish(core, len(core.decisions))
                self._keep_result(None)  # the standings so far, for the scoreboard between games
            ends = None if max_seconds is None else self._now() + round(max_seconds * 1e9)
            next_game: int | None = None
            self.camera.start()
            said_ready = False
            while not self.stop_event.is_set():
                if not said_ready and self.camera.ready.is_set():  # the networks loaded, the camera tried
                    said_ready = True
                    journal = self.journals[-1].name
                    playing = f"playing {core.setup.game} ({core.setup.preset}), journal {journal}"
                    self.notifier.ready(f"{playing}; {self.camera.first_try}")
                now = self._now()
                self.stats.turns += 1
                self.notifier.ping(time.monotonic_ns())  # the loop goes round: it is healthy
                ping = self.notifier.next_ping()
                # While the menu is open the abandoned game is not ticked: its deadlines are not waited for.
                game_wake = self.menu.next_wakeup() if self.menu else core.next_wakeup(now)
                wakes = [game_wake, next_game, ends]
                wakes.append(None if ping is None else ping + self.offset_ns)
                wake = min(t for t in wakes if t is not None)
                try:
                    items = [self.inbox.get(timeout=max(0, wake - now) / 1e9)]
                except queue.Empty:
                    items = [None]
                items += drain(self.inbox)  # all that came while the loop was busy: taken before time is decided
                woke_host = time.monotonic_ns()
                woke = woke_host + self.offset_ns
                if ends is not None and woke >= ends:
                    break
                decided, faults, over = len(core.decisions), dict(core.faults), core.referee.finished
                with core.batch(woke):
                    for item in items:
                        try:
                            self._handle(core, item, woke)
                        except Exception:  # a fault of the table's own code: logged, and the table goes on
                            self.stats.errors += 1
                            log.exception("the table could not take %r; it goes on without it", item)
                if len(core.decisions) > decided:
                    self.stats.told(woke_host, time.monotonic_ns(), items)
                if core.referee.finished and not over:
                    self._keep_result(core)
                if self.menu is None:
                    self.pins.check(core, woke)
                playing = core
                core, next_game = self._flow(core, woke, next_game)
                if core is not playing:
                    self._publish(core, 0)
                elif len(core.decisions) > decided or core.faults != faults:  # a fault's reason too
                    self._publish(core, decided)
        finally:
            self._close(core)

    def _flow(self, core: TableCore, now: int, next_game: int | None) -> tuple[TableCore, int | None]:
        """Between games: the preset menu every button held opens, a new game when one is due
        (asked for, or ``NEXT_GAME_S`` after the last ended); the game played and the next deal's time."""
        if core.new_game_asked and self.menu is None:
            core.new_game_asked, next_game = False, None
            self.series.abandon(core)
            self.menu = self._preset_menu(now)
        if self.menu is not None:
            self.menu.tick(now)
            if self.menu.offered != self._offered:
                self._offered = self.menu.offered
                log.warning(
                    "preset %d of %d offered: %s (tap: the next one; hold: deal it)",
                    self.menu.offered + 1,
                    len(self.menu.presets),
                    self.menu.preset,
                )
            if self.menu.deal:
                self._deal_from(self.menu)
            elif self.menu.show_due(now):
                for seat in range(core.setup.players):
                    self._show(seat, self.menu.pattern())
        if self._deal_now or (next_game is not None and now >= next_game):
            self._deal_now = False
            try:
                return self._new_game((core.setup.dealer + 1) % core.setup.players, now), None
            except (JournalError, ConfigError, OSError) as exc:  # no journal file, a preset file gone: later
                log.error("the next game cannot be dealt: %s; it waits %g s (a command may mend it)", exc, NEXT_GAME_S)
                return core, now + round(NEXT_GAME_S * 1e9)
        if core.referee.finished and next_game is None and self.menu is None:
            return core, now + round(NEXT_GAME_S * 1e9)
        return core, next_game

    def _keep_result(self, core: TableCore | None, journal: Path | None = None) -> None:
        """A game just over (``core``, journaled in ``journal``: the latest game's by default),
        into the standings beside the journals (``table.standings``); the scoreboard is told them
        (with None, only told). Nothing here may stop the table: a database that cannot be
        written is logged, the game and its journal stand, and ``cardtable stats --rebuild``
        makes it again."""
        names = self._names(core)
        try:
            standings = Standings.opened(self._folder / STANDINGS)
            try:
                if core is not None:
                    name = (journal or self.journals[-1]).name
                    standings.add_played(name, core.setup, names, core.decisions, core.referee)
                summary = standings.summary()
            finally:
                standings.close()
        except (JournalError, sqlite3.Error, OSError) as exc:
            log.error("the game is not in the standings: %s", exc)
            return
        except Exception:  # a fault of the table's own code: logged, and the table goes on
            self.stats.errors += 1
            log.exception("the game could not be put in the standings; the table goes on")
            return
        if self.publisher is not None:
            self.publisher.retain("standings", json.dumps(summary, separators=(",", ":")))

    def _publish(self, core: TableCore, since: int) -> None:
        """The decisions from ``since`` on, and the state they leave, to the MQTT broker."""
        if self.publisher is None:
            return
        names = self._names(core)
        narrator = Narrator(names, close_call_ns=self.close_call_ns)
        for decision in core.decisions[since:]:
            self.publisher.event(narrator.told(decision, core.referee))
        paused = [f"{part}: {why}" for part, why in core.faults.items()]
        patterns = core.signals.patterns(self._now())
        self.publisher.show(core.referee, core.setup, names, patterns, paused)

    def _names(self, core: TableCore | None) -> tuple[str, ...]:
        """The players' names of ``core``'s game: as dealt (names changed since are the next
        game's), or the configuration's."""
        return core.names if core is not None and core.names else tuple(self.config.seats.names)

    def _preset_menu(self, now: int) -> PresetMenu:
        """The presets of the game played that this table can play, the one played first."""
        game = self.config.game
        current = game.preset or GAMES[game.name].preset
        playable = [current]
        for preset in shipped_presets(game.name):
            if preset != current:
                try:
                    self.config.changed(game_overrides(preset=preset))
                except ConfigError as exc:
                    log.info("preset %s is not offered: %s", preset, exc)
                    continue
                playable.append(preset)
        self._offered = None
        log.warning("choosing the preset: tap any button for the next one, hold one to deal")
        return PresetMenu(playable, len(self.config.seats.names), now)

    def _deal_from(self, menu: PresetMenu) -> None:
        self.menu = None
        self.pins.dealt_by = menu.down()
        if menu.offered:
            try:
                self._change(game_overrides(preset=menu.preset))
            except ConfigError as exc:  # the configuration's files changed meanwhile
                log.error("preset %s cannot be played (%s); the game is dealt as it was", menu.preset, exc)
        self._deal_now = True

    # ------------------------------------------------------------------------------ commands

    def _listen(self) -> None:
        """The control socket for ``cardtable send``; a table without it still plays (a table
        whose journal folder cannot be made does not: it would keep no record)."""
        try:
            self._folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(
                f"{self.config.path}: [journal] folder: {self._folder} cannot be made: {exc.strerror or exc}"
            ) from None
        try:
            self._parts.append(ControlServer(self._folder / SOCKET_NAME, self.inbox).start())
        except ControlError:
            raise
        except OSError as exc:  # e.g. a folder path too long for a Unix socket
            log.error("no control socket in %s (%s): cardtable send cannot reach this table", self._folder, exc)

    def _command(self, core: TableCore, request: CommandRequest, now: int) -> None:
        command = request.command
        log.warning("%s from %s", json.dumps(command.to_json()), command.source)
        if command.kind == "pause":
            return request.reply(*command_answers.pause(core, command.source, now))
        if command.kind == "resume":
            return request.reply(*command_answers.resume(core, now))
        if command.kind == "end-game":
            return request.reply(*command_answers.end_game(None if self.menu is not None else core, now))
        playing = None if self.menu is not None else core
        if command.kind == "out-of-cards" and command.seat is not None:
            return request.reply(*command_answers.out_of_cards(playing, command.seat, self._names(playing), now))
        if command.kind == "out-of-turn" and command.seat is not None and command.card is not None:
            told = command_answers.out_of_turn(playing, command.seat, command.card, self._names(playing), now)
            return request.reply(*told)
        if command.changes:
            try:
                self._change(game_overrides(command.game, command.rules, command.names, command.seed))
            except ConfigError as exc:
                return request.reply(False, str(exc))
        if command.kind == "new-game":
            if self.menu is None:
                self.series.abandon(core)
            self.menu, self._deal_now = None, True
            return request.reply(True, f"dealing a new game: {self._describe()}")
        if self.menu is not None:  # the menu offers the presets of the game now set
            self.menu = self._preset_menu(now)
        return request.reply(True, f"from the next game: {self._describe()}")

    def _describe(self) -> str:
        game, names = self.config.game, self.config.seats.names
        return f"{game.name} ({game.preset or GAMES[game.name].preset}) for {', '.join(names)}"

    def _change(self, overrides: dict[str, dict[str, Any]]) -> None:
        """Change the games to come (checked: a ``ConfigError`` names what cannot be), and keep it."""
        self.config = self._kept.change(self.config, overrides)
        if self.on_config is not None:
            self.on_config(self.config)

    def close_call_ns(self) -> int:
        """A slap won by less than this is a close call: the bridge's clock bound now, or a
        millisecond on the Pi's own pins (their edges are the kernel's timestamps)."""
        bound = getattr(self._buttons, "sync_bound_ns", None)
        return max(CLOSE_CALL_NS, bound or 0)

    def metrics(self) -> dict[str, int]:
        """What the table has counted of its parts' troubles (``loop_stats.troubles``)."""
        return troubles(list(self.games), self._buttons, self.pins.held_at_start, self.stats.errors)

    @property
    def games(self) -> deque[TableCore]:
        """The latest games' cores, the one played last."""
        return self.series.games

    @property
    def journals(self) -> deque[Path]:
        """The latest games' journal files."""
        return self.series.journals

    def lights_now(self) -> list[Pattern]:
        """What each seat's light shows now (the terminal view's dots)."""
        return self.games[-1].signals.patterns(self._now()) if self.games else []

    def _now(self) -> int:
        """The table's clock: the host's monotonic clock, carried on past a journal's last input
        when the host has restarted since (``offset_ns``)."""
        return time.monotonic_ns() + self.offset_ns

    def _handle(self, core: TableCore, item: Any, now: int) -> None:
        """Hand one input to the core (each input method ticks it); with none, time has passed."""
        shift = self.offset_ns
        if isinstance(item, CommandRequest):
            self._command(core, item, now)
        elif self.menu is not None:  # between games: the buttons choose, the camera is not read
            if isinstance(item, RawEdge):
                self.menu.edge(item.seat, item.pressed, item.t_ns + shift)
            elif isinstance(item, Fault):
                core.fault(item.part, item.problem, now)
        elif item is None:
            core.tick(now)
        elif isinstance(item, RawEdge):
            core.edge(item.seat, item.pressed, item.t_ns + shift, now)
        elif isinstance(item, EdgesVouched):
            core.vouch(item.t_ns + shift, now)
        elif isinstance(item, ButtonLevel):
            self.pins.level(core, item, now)
        elif isinstance(item, FrameReport):
            if shift:
                events = tuple(dataclasses.replace(e, t_ns=e.t_ns + shift) for e in item.events)
                vouched = None if item.vouched_to is None else item.vouched_to + shift
                item = dataclasses.replace(item, t_ns=item.t_ns + shift, events=events, vouched_to=vouched)
            core.frame(item, now)
        elif isinstance(item, Fault):
            core.fault(item.part, item.problem, now)

    def _lateness(self) -> dict[str, int]:
        """How late each source's inputs may reach the loop, from the configuration: the camera's
        reports, and the seats' edges (the bridge's also held by the board's loop and the USB
        link); the core adds the time a gesture takes to be decided (``seat_events_bound``)."""
        edges = self.config.seats.lateness_ms * MS + self._link_ns
        return {CAMERA: self.config.camera.lateness_ms * MS, self._seat_source: edges}

    def _outputs(self) -> Outputs:
        outputs = Outputs(lights=self._show, decisions=[self.on_decision] if self.on_decision else [])
        if self.sounds is not None:
            outputs.decisions.append(self.sounds.decided)
            outputs.ticks.append(self.sounds.tick)
        return outputs

    def _resumed(self, now: int) -> TableCore | None:
        """The game the newest journal holds, if it was not over and is this table's game: the
        table was killed, or lost power, in the middle of it."""
        found = newest_journal(self._folder, len(self.config.seats.names), now)
        if found is None:
            return None
        path, journal = found.path, found.journal
        self.offset_ns = found.offset_ns or self.offset_ns
        core = TableCore.resumed(
            journal,
            None,
            self._lateness(),
            self._now(),
            outputs=self._outputs(),
            seat_source=self._seat_source,
            button_names=self._button_names,
        )
        core.names = journal.names
        if core.referee.finished:
            self._finished = core  # its journal is left as it is; what it carries goes to the next game
            self._keep_result(core, path)  # over as the table went down: kept (again, in its place)
            return None
        core.journal = JournalWriter.resume(path, fsync=self.config.journal.fsync)
        self.series.keep(core, path, journal.number)
        replayed = len(journal.entries)
        log.info("resuming the game in %s: %d inputs replayed, state %s", path, replayed, state_digest(core.referee))
        self._dark_seats(core)
        self.pins.game_started(core, self._now())
        return core

    def _new_game(self, dealer: int, now: int) -> TableCore:
        seed = self.config.game.seed if self.config.game.seed is not None else int.from_bytes(os.urandom(4), "big")
        setup = dataclasses.replace(self.config.setup(seed), dealer=dealer)
        setup = self._carried_to(setup)
        folder = self.config.resolve(self.config.journal.folder)
        folder.mkdir(parents=True, exist_ok=True)
        path, number = self.series.next_journal(folder, setup.game)
        names = self.config.seats.names
        journal = JournalWriter(path, setup, self.config.journal.fsync, now, number, names)
        core = TableCore(
            setup,
            self._lateness(),
            self._outputs(),
            journal,
            seat_source=self._seat_source,
            button_names=self._button_names,
        )
        core.names = tuple(names)
        if self.games:
            previous = self.games[-1]
            for part in CARRIED:
                if part in previous.faults:
                    core.fault(part, previous.faults[part], now)
            self.series.close_journal(previous)
        self.series.keep(core, path, number)
        dealt = self.series.dealt
        log.info("game %d: %s (%s), seed %d, journal %s", dealt, setup.game, setup.preset, seed, path)
        self.notifier.status(f"game {dealt}: {setup.game} ({setup.preset}), journal {path.name}")
        core.start(now)
        self._dark_seats(core)
        self.pins.game_started(core, now)
        return core

    def _carried_to(self, setup: GameSetup) -> GameSetup:
        """The set-up with what the last game finished carries to the next of its kind (an
        undecided trading game's pot), before or since a restart; checked like any set-up."""
        last = self.games[-1] if self.games else self._finished
        if last is None or last.setup.game != setup.game or last.setup.players != setup.players:
            return setup
        carried = last.referee.carried_over()
        if not carried:
            return setup
        try:
            changed = dataclasses.replace(setup, rules={**setup.rules, **carried})
            changed.referee()
        except (GameSetupError, RulesError) as exc:
            log.error("what the last game carries (%s) cannot apply to the next: %s", carried, exc)
            return setup
        log.warning("the last game carries to this one: %s", ", ".join(f"{k} {v}" for k, v in carried.items()))
        return changed

    def _dark_seats(self, core: TableCore) -> None:
        """The lights of the seats wired past this game's players: off (a game before may have had
        more players)."""
        for seat in range(core.setup.players, self._wired):
            self._show(seat, OFF)

    def _close(self, core: TableCore | None) -> None:
        self.stop_event.set()
        self.notifier.stopping()
        if core is not None:
            self.series.close_journal(core)
        for seat in range(self._wired):
            with contextlib.suppress(Exception):
                self._show(seat, OFF)
        if self.camera.is_alive():
            self.camera.join(timeout=5)
        for part in self._parts:
            with contextlib.suppress(Exception):
                (part.stop if hasattr(part, "stop") else part.close)()

    def summary(self) -> str:
        """How the loop did: frames read, decisions, and the loop's time from waking to the lights."""
        camera = self.camera
        return (
            f"{camera.frames} frames ({camera.read_frames} read, {camera.failed_frames} failed, "
            f"{camera.skipped_frames} showing no scene), "
            f"{self.series.decisions()} decisions in {self.series.dealt} game(s); {self.stats.timings()}"
            + "".join(f"; {name}: {count}" for name, count in self.metrics().items() if count)
        )
