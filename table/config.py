"""A table's configuration: one TOML file that says what the table is made of and what it plays.

``cardtable run --config table.toml`` reads it; ``table.example.toml`` in the repository is a
documented example. Every key is checked when the file is read, before any hardware is opened:
an unknown key (with the nearest known one suggested), a value of the wrong type or out of
range, a seat count the buttons or the game cannot serve, a calibration or deck profile that
cannot be read. Each error names the file, the section and the key. Paths in the file are taken
from the file's own folder.
"""

from __future__ import annotations

import dataclasses
import os
import socket
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from table.errors import CardtableError
from table.games import DEFAULT_GAME, GAMES, GameSetup, game_named, setup_game
from table.referee import GameSetupError
from table.rules import RulesError, is_preset_file, read_text_file
from table.typed import checked_fields, refuse_unknown

Pin = int | str  # gpiozero's names: 17, "GPIO17", "BOARD11"
NAME_LENGTH = 20  # a seat's name, at most (it goes on the terminal view and the dashboard)


class ConfigError(CardtableError, ValueError):
    """A configuration that cannot be used; the message names the file, section and key."""


@dataclass(frozen=True)
class GameConfig:
    """What the table plays first (seat gestures and the command line change it later)."""

    name: str = DEFAULT_GAME
    preset: str | None = None  # a shipped preset's name, or a preset file (default: the game's own)
    rules: dict[str, Any] = field(default_factory=dict)  # single rules changed from the preset's
    dealer: int = 0
    seed: int | None = None  # None: a new seed each game, written in its journal


@dataclass(frozen=True)
class CameraConfig:
    source: str = "usb:0"  # usb:N, usb:/dev/videoN, picamera, picamera:N, folder:PATH, video:PATH
    width: int = 1280
    height: int = 720
    fps: float = 15.0
    calibration: str = "calibration.json"  # written by ``cardtable calibrate``
    deck: str | None = None  # an enrolled deck profile (``cardtable vision enrol``); None: the built-in reader
    threshold: float = 0.7  # below this confidence a card is unsure, and shown again
    confirm_frames: int = 2  # frames a card must be read in before it counts as placed
    lost_after_s: float = 3.0  # no frame for this long: the camera is lost, and the game pauses
    lateness_ms: int = 450  # the sequencer waits this long at most for the camera's word on a moment


@dataclass(frozen=True)
class SeatsConfig:
    names: tuple[str, ...] = ()  # one a player, clockwise from seat 0: the number of players
    backend: Literal["gpio", "bridge"] = "gpio"
    buttons: tuple[Pin, ...] = ()  # gpio: a pin a seat
    lights: tuple[Pin | tuple[Pin, Pin, Pin], ...] = ()  # gpio: a pin a seat, or red, green, blue pins
    pull_up: bool = True  # gpio: buttons wired to ground (false: to 3.3 V)
    common_anode: bool | tuple[bool, ...] = False  # gpio: lights lit by pulling their pins low; or one a seat
    port: str = ""  # bridge: the board's serial port, e.g. /dev/ttyACM0
    baud: int = 115_200
    board_buttons: tuple[int, ...] = ()  # bridge: the board's input for each seat (default 0, 1, 2, ...)
    lateness_ms: int = 20  # the sequencer waits this long at most for a press to arrive

    def anodes(self) -> tuple[bool, ...]:
        """Whether each seat's light is common-anode (lit by pulling low)."""
        if isinstance(self.common_anode, tuple):
            return self.common_anode
        return (self.common_anode,) * len(self.lights)

    def wired(self) -> int:
        """The seats with a button: the players sit at the first of them (one a name), and the
        seats past the last name stay dark, their buttons ignored."""
        return len(self.buttons) if self.backend == "gpio" else max(len(self.board_buttons), len(self.names))


BOARD_SEATS = 8  # the bridge's board's button inputs (``firmware_bridge/firmware``): a seat each


@dataclass(frozen=True)
class JournalConfig:
    folder: str = "journal"  # one journal file a game, kept here
    fsync: bool = True  # each line on the disk before the next input is used (a power cut loses nothing)


@dataclass(frozen=True)
class MqttConfig:
    url: str = ""  # mqtt://[USER:PASS@]HOST:PORT (mqtts:// for TLS); empty: the table publishes nothing
    table_id: str = "table"  # names the topics: cardtable/<table_id>/...; one a table on a broker
    password_file: str = ""  # a file holding the password (instead of one in the url)
    keep_events: int = 1_000  # decisions kept for the broker while it is away
    ca_file: str = ""  # mqtts://: the certificate authority that signed the broker's (empty: the system's)
    cert_file: str = ""  # mqtts://: the table's own certificate, where the broker asks for one ...
    key_file: str = ""  # ... and its key
    # The scoreboard's address, which Home Assistant links to; empty: this machine's, on the
    # broker's websockets port (http://<hostname>.local:9001/?table=<table_id>&user=dashboard).
    scoreboard_url: str = ""


@dataclass(frozen=True)
class SoundConfig:
    on: bool = True  # short cues on the Pi's audio output, where it has a sound card and aplay
    volume: float = 0.6  # from 0 (silent) to 1


@dataclass(frozen=True)
class TableConfig:
    path: Path
    game: GameConfig
    camera: CameraConfig
    seats: SeatsConfig
    journal: JournalConfig
    zones: tuple[Any, ...]  # vision.zones.Zone: where the tracker files each card
    mqtt: MqttConfig = field(default_factory=MqttConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)  # the file's keys, as read

    def setup(self, seed: int) -> GameSetup:
        """The first game's set-up, with the seed it is played with."""
        return _game_setup(self.game, len(self.seats.names), seed, self.path)

    def resolve(self, relative: str) -> Path:
        """A path from the file, taken from the file's own folder."""
        return (self.path.parent / Path(relative).expanduser()).resolve()

    def mqtt_settings(self) -> Any:
        """The broker to publish to (``table.mqtt.MqttSettings``), or None when no url is set."""
        from table.mqtt import MqttError, parse_url

        mqtt = self.mqtt
        if not mqtt.url:
            return None
        try:
            settings = parse_url(mqtt.url, mqtt.table_id, mqtt.keep_events)
        except MqttError as exc:
            raise ConfigError(f"[mqtt] {exc}") from None
        if mqtt.password_file:
            path = self.resolve(mqtt.password_file)
            try:
                password = read_text_file(path, "password file").strip()
            except RulesError as exc:
                raise ConfigError(f"[mqtt] password_file: {exc}") from None
            if settings.username is None:
                raise ConfigError("[mqtt] password_file: the url names no user (mqtt://USER@HOST:PORT)")
            settings = dataclasses.replace(settings, password=password)
        page = mqtt.scoreboard_url or f"http://{socket.gethostname()}.local:9001/?table={mqtt.table_id}&user=dashboard"
        settings = dataclasses.replace(settings, page=page)
        files = {key: getattr(mqtt, key) for key in ("ca_file", "cert_file", "key_file") if getattr(mqtt, key)}
        if files and not settings.tls:
            raise ConfigError(f"[mqtt] {', '.join(files)}: only for TLS (a url beginning mqtts://)")
        if bool(mqtt.cert_file) != bool(mqtt.key_file):
            raise ConfigError("[mqtt] cert_file and key_file go together: the table's certificate and its key")
        for key, name in files.items():
            if not self.resolve(name).is_file():
                raise ConfigError(f"[mqtt] {key}: no such file {self.resolve(name)}")
        resolved = {key: str(self.resolve(name)) for key, name in files.items()}
        return dataclasses.replace(settings, **resolved)

    def changed(self, overrides: Mapping[str, Mapping[str, Any]]) -> TableConfig:
        """This configuration with some keys replaced (a command to the running table: another
        preset, other names), checked as if the file said so; the file is not read again."""
        return _checked(self.path, _merged(self.data, overrides))


def game_overrides(
    game: str | None = None, preset: str | None = None, names: Sequence[str] | None = None, seed: int | None = None
) -> dict[str, dict[str, Any]]:
    """The keys a change of game, preset, names or seed replaces: another game starts from its
    own standard preset and rules unless a preset is given with it."""
    changes: dict[str, Any] = {} if seed is None else {"seed": seed}
    if game is not None:
        changes.update(name=game, preset=preset, rules={})
    elif preset is not None:
        changes.update(preset=preset)
    return {"game": changes, "seats": {} if names is None else {"names": [n.strip() for n in names]}}


SECTIONS: dict[str, type] = {
    "game": GameConfig,
    "camera": CameraConfig,
    "seats": SeatsConfig,
    "journal": JournalConfig,
    "sound": SoundConfig,
    "mqtt": MqttConfig,
}


def load_config(path: str | Path, overrides: Mapping[str, Mapping[str, Any]] | None = None) -> TableConfig:
    """Read and check a table's configuration file; ``overrides`` replace keys of its sections
    (``{"game": {"preset": "screw"}}``: the command line's), and are checked the same way."""
    path = Path(path)
    data = _read(path)
    try:
        _no_nul(data, "")
        return _checked(path.resolve(), _merged(data, overrides or {}))
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def _no_nul(value: Any, where: str) -> None:
    """No NUL byte in any text of the configuration: no path or name holds one."""
    if isinstance(value, str) and "\x00" in value:
        raise ConfigError(f"{where or 'a key'}: {value!r} holds a NUL byte")
    if isinstance(value, dict):
        for key, inner in value.items():
            _no_nul(key, where)
            _no_nul(inner, f"{where}.{key}" if where else f"[{key}]" if isinstance(inner, dict) else key)
    elif isinstance(value, list):
        for inner in value:
            _no_nul(inner, where)


def journal_folder(path: str | Path) -> Path:
    """Only the journal folder a configuration names (where a running table's control socket
    is): read without checking the parts, which the running table has done."""
    path = Path(path)
    data = _read(path)  # (its errors name the file)
    try:
        journal = _section("journal", JournalConfig, data.get("journal", {}))
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return (path.resolve().parent / Path(journal.folder).expanduser()).resolve()


def _read(path: Path) -> dict[str, Any]:
    if not path.exists():
        raise ConfigError(f"{path}: no such configuration file")
    try:
        return tomllib.loads(read_text_file(path, "configuration"))
    except RulesError as exc:
        raise ConfigError(str(exc)) from None
    except (tomllib.TOMLDecodeError, RecursionError) as exc:  # (nested past Python's depth)
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None


def merged_overrides(
    first: Mapping[str, Mapping[str, Any]], then: Mapping[str, Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Two sets of section keys in one, ``then``'s winning where both set a key."""
    out = {section: dict(values) for section, values in first.items()}
    for section, values in then.items():
        out[section] = {**out.get(section, {}), **values}
    return out


def _merged(data: Mapping[str, Any], overrides: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    for name in overrides:  # (a section written as a value, ``game = "cuckoo"``, is named as the check names it)
        if name in data and not isinstance(data[name], dict):
            raise ConfigError(f"[{name}] must be a section of keys, not {data[name]!r}")
    return {**data, **merged_overrides({k: v for k, v in data.items() if k in overrides}, overrides)}


def _checked(path: Path, data: Mapping[str, Any]) -> TableConfig:
    from vision.calibration import CalibrationError

    for key in data:
        refuse_unknown(key, [*SECTIONS, "zones"], lambda k: f"section [{k}]", ConfigError)
    sections = {name: _section(name, cls, data.get(name, {})) for name, cls in SECTIONS.items()}
    camera = sections["camera"]
    sections["camera"] = dataclasses.replace(camera, source=_source_from(path.parent, camera.source))
    config = TableConfig(path, zones=(), data=data, **sections)
    _check_seats(config.seats)
    _check_camera(config.camera)
    if not 0 <= config.sound.volume <= 1:
        raise ConfigError(f"key 'volume' in [sound]: {config.sound.volume} is outside 0 to 1")
    config.mqtt_settings()  # a bad url, table id or password file is named now, not at the first decision
    setup = _game_setup(config.game, len(config.seats.names), config.game.seed or 0, path)
    try:
        from vision.zones import load_zones

        zones = tuple(load_zones(data))
    except CalibrationError as exc:
        raise ConfigError(f"[[zones]]: {exc}") from None
    seats = config.seats
    board_decides = seats.backend == "bridge" and not seats.board_buttons  # its inputs, one a seat, are the board's
    _check_zones(zones, BOARD_SEATS if board_decides else seats.wired())
    game = game_named(setup.game)
    kinds_read = game.zones_read(setup.rules_value())
    _check_zones_read(zones, kinds_read, game.title, setup.players)
    config = dataclasses.replace(config, zones=zones)
    _check_files(config, {"pile", *kinds_read})
    return config


def _section(name: str, cls: type, values: Any) -> Any:
    if not isinstance(values, Mapping):
        raise ConfigError(f"[{name}] must be a section of keys, not {values!r}")
    return cls(**checked_fields(cls, values, lambda key: f"key {key!r} in [{name}]", ConfigError))


def _source_from(folder: Path, spec: str) -> str:
    """A frame source whose file's path (a recording's, a still picture's) is taken from the
    configuration's folder."""
    kind, sep, rest = spec.strip().partition(":")
    if sep and kind.lower() in ("folder", "video", "still") and rest:
        return f"{kind}:{(folder / Path(rest).expanduser()).resolve()}"
    if sep or spec.strip().lower() in ("picamera", ""):
        return spec
    return str((folder / Path(spec.strip()).expanduser()).resolve())  # a bare path: a folder or a video


def _check_seats(seats: SeatsConfig) -> None:
    names = seats.names
    if not names:
        raise ConfigError('[seats] names: give one name a seat, e.g. names = ["Ann", "Bob", "Cyd"]')
    for name in names:
        if not name.strip() or len(name) > NAME_LENGTH or not name.isprintable():
            raise ConfigError(f"[seats] names: {name!r} must be 1 to {NAME_LENGTH} printable characters")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ConfigError(f"[seats] names: {', '.join(map(repr, twice))} named twice: the seats must be told apart")
    count = len(names)
    if seats.backend == "gpio":
        wired = len(seats.buttons)
        if wired < count:
            raise ConfigError(
                f"[seats] buttons: {wired} pins for {count} seats; give one a seat (seats past the names stay dark)"
            )
        if seats.lights and len(seats.lights) != wired:
            raise ConfigError(f"[seats] lights: {len(seats.lights)} for {wired} seats; give one a seat, or none")
        if isinstance(seats.common_anode, tuple) and len(seats.common_anode) != len(seats.lights):
            raise ConfigError(
                f"[seats] common_anode: {len(seats.common_anode)} for {len(seats.lights)} seats; give one a light, "
                "or true or false"
            )
        lights = [light if isinstance(light, tuple) else (light,) for light in seats.lights]
        pins = [*seats.buttons, *(p for light in lights for p in light)]
        keys = [str(p).upper().removeprefix("GPIO") for p in pins]
        twice = sorted({str(p) for p, k in zip(pins, keys, strict=True) if keys.count(k) > 1})
        if twice:
            raise ConfigError(f"[seats] pin {', '.join(twice)} is given twice (buttons and lights need a pin each)")
        for key in ("port", "board_buttons"):
            if getattr(seats, key):
                raise ConfigError(f'[seats] {key} is for backend = "bridge", not "gpio"')
    else:
        if not seats.port:
            raise ConfigError('[seats] port: backend = "bridge" needs the board\'s serial port, e.g. "/dev/ttyACM0"')
        if seats.board_buttons and len(seats.board_buttons) < count:
            raise ConfigError(f"[seats] board_buttons: {len(seats.board_buttons)} for {count} seats")
        if len(set(seats.board_buttons)) != len(seats.board_buttons) or any(b < 0 for b in seats.board_buttons):
            raise ConfigError(f"[seats] board_buttons: {list(seats.board_buttons)} must be distinct inputs from 0")
        for key in ("buttons", "lights", "common_anode"):
            if getattr(seats, key):
                raise ConfigError(f'[seats] {key} is for backend = "gpio": the bridge\'s board has its own')
    if not 9_600 <= seats.baud <= 4_000_000:
        raise ConfigError(f"[seats] baud: {seats.baud} is no serial speed (9600 to 4000000)")
    if not 0 <= seats.lateness_ms <= 1_000:
        raise ConfigError(f"[seats] lateness_ms: {seats.lateness_ms} must be 0 to 1000")


def _check_camera(camera: CameraConfig) -> None:
    from vision.frames import FrameSourceError, parse_spec

    try:
        kind, where = parse_spec(camera.source)
    except FrameSourceError as exc:
        raise ConfigError(f"[camera] source: {exc}") from None
    if kind in ("folder", "video") and not Path(where).exists():  # a camera may be plugged in later; a file not
        raise ConfigError(f"[camera] source: the recording {where} does not exist")
    limits = {
        "width": (160, 8192),
        "height": (120, 8192),
        "fps": (1, 120),
        "threshold": (0.05, 1.0),
        "confirm_frames": (1, 10),
        "lost_after_s": (0.5, 600),
        "lateness_ms": (0, 5_000),
    }
    for key, (low, high) in limits.items():
        value = getattr(camera, key)
        if not low <= value <= high:
            raise ConfigError(f"[camera] {key}: {value:g} must be {low:g} to {high:g}")
    from vision.tracker import TrackerConfig

    frames = TrackerConfig(confirm=camera.confirm_frames).report_frames
    slowest = frames * 1000 / camera.fps
    if camera.lateness_ms <= slowest:
        raise ConfigError(
            f"[camera] lateness_ms: {camera.lateness_ms} ms is too short: a card placed or taken is reported "
            f"up to {frames} frames after it happened, {slowest:.0f} ms at {camera.fps:g} frames a second"
        )


def _game_setup(game: GameConfig, players: int, seed: int, path: Path) -> GameSetup:
    if game.name not in GAMES:
        raise ConfigError(f"[game] name: {game.name!r} is not one of {', '.join(sorted(GAMES))}")
    preset = game.preset
    if preset is not None and is_preset_file(preset):
        preset = str((path.parent / preset).resolve())
    try:
        return setup_game(game.name, preset, game.rules, players, game.dealer, seed)
    except (RulesError, GameSetupError) as exc:
        raise ConfigError(f"[game]: {exc}") from None


def _check_zones_read(zones: tuple[Any, ...], kinds_read: tuple[str, ...], title: str, players: int) -> None:
    """A zone of each kind the game (``title``) reads cards on, and every seat's own where it
    reads the seats'."""
    for kind in kinds_read:
        if kind == "seat":
            laid = {z.seat for z in zones if z.kind == "seat"}
            missing = [str(seat) for seat in range(players) if seat not in laid]
            if missing:
                seats = ", ".join(missing)
                raise ConfigError(
                    f"[[zones]]: {title} reads each seat's cards on its own seat zone: none for seat {seats}"
                )
        elif not any(z.kind == kind for z in zones):
            raise ConfigError(f'[[zones]]: {title} reads cards on a zone of kind "{kind}": none is laid out')


def _check_zones(zones: tuple[Any, ...], seats: int) -> None:
    if not any(z.kind == "pile" for z in zones):
        raise ConfigError('[[zones]]: no zone of kind "pile": the table needs one for the cards played')
    for zone in zones:
        if zone.seat is not None and zone.seat >= seats:
            raise ConfigError(f"[[zones]] {zone.name!r}: seat {zone.seat}, but the table has seats 0 to {seats - 1}")


def _writable(folder: Path) -> None:
    """A file made and gone again in ``folder``, as the table will make its journals: a folder
    of another user's, a read-only disk or a system folder refuses it (the last two even root)."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".cardtable-check-"):
            pass
    except OSError as exc:
        raise ConfigError(f"[journal] folder: {folder} cannot be written to: {exc.strerror or exc}") from None


def _check_files(config: TableConfig, kinds_read: set[str]) -> None:
    """The files the configuration names, read; and the zones of the kinds the game reads
    (``kinds_read``) within what the camera sees."""
    from vision.calibration import Calibration, CalibrationError
    from vision.profile import EnrolError, load_deck
    from vision.zones import unseen_zones

    camera = config.camera
    try:
        calibration = Calibration.load(config.resolve(camera.calibration))
    except CalibrationError as exc:
        raise ConfigError(f"[camera] calibration: {exc}; make one with cardtable calibrate") from None
    size = calibration.image_size
    if size is not None and size != (camera.width, camera.height):
        raise ConfigError(
            f"[camera] calibration: made from {size[0]}x{size[1]} images, but the camera is set to "
            f"{camera.width}x{camera.height}: calibrate again at that size, or set width and height to it"
        )
    read = [zone for zone in config.zones if zone.kind in kinds_read]
    unseen = unseen_zones(read, calibration, (camera.width, camera.height))
    if unseen:
        corners = calibration.to_table([[0, 0], [camera.width, 0], [camera.width, camera.height], [0, camera.height]])
        (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
        raise ConfigError(
            f"[[zones]]: {', '.join(map(repr, unseen))} lie{'s' if len(unseen) == 1 else ''} wholly outside what "
            f"the camera sees (x {x0:.0f} to {x1:.0f} mm, y {y0:.0f} to {y1:.0f} mm): zones are in table millimetres"
        )
    if camera.deck is not None:
        try:
            load_deck(config.resolve(camera.deck))
        except (EnrolError, OSError, ValueError) as exc:
            raise ConfigError(f"[camera] deck: {exc}") from None
    folder = config.resolve(config.journal.folder)
    try:
        if folder.exists():
            if not folder.is_dir():
                raise ConfigError(f"[journal] folder: {folder} is a file, not a folder")
            _writable(folder)
        elif not (above := next(p for p in folder.parents if p.exists())).is_dir():  # where it will be made from
            raise ConfigError(f"[journal] folder: {folder} cannot be made: {above} is a file, not a folder")
        elif not os.access(above, os.W_OK | os.X_OK):
            raise ConfigError(f"[journal] folder: {folder} cannot be made: {above} may not be written to")
    except OSError as exc:  # a name the system refuses (too long, say)
        raise ConfigError(f"[journal] folder: {exc.strerror or exc}: {str(folder)[:80]}") from None
