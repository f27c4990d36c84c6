"""The table's configuration (``table.config``): the shipped example reads, and every bad key is named."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from table.config import ConfigError, load_config
from vision.calibration import calibrate_from_points

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "table.example.toml").read_text(encoding="utf-8")


def _calibrate(folder: Path, size: tuple[int, int] = (1280, 720)) -> None:
    w, h = size
    pixels = [[100, 100], [w - 100, 100], [w - 100, h - 100], [100, h - 100]]
    calibrate_from_points(pixels, [[0, 0], [800, 0], [800, 600], [0, 600]], size).save(folder / "calibration.json")


def _table(tmp_path: Path, text: str = EXAMPLE) -> Path:
    _calibrate(tmp_path)
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_example_reads_as_documented(tmp_path: Path) -> None:
    config = load_config(_table(tmp_path))
    assert config.seats.names == ("Ann", "Bob", "Cyd", "Dee") and config.seats.buttons == (17, 27, 22, 23)
    assert config.camera.source == "usb:0" and config.camera.fps == 15.0
    assert [z.name for z in config.zones] == ["pile", "stock", "trump", "seat-0", "seat-1", "seat-2", "seat-3"]
    assert config.resolve(config.journal.folder) == (tmp_path / "journal").resolve()
    setup = config.setup(seed=9)
    assert (setup.game, setup.preset, setup.players, setup.seed) == ("ers", "standard", 4, 9)


def _replaced(old: str, new: str) -> str:
    assert old in EXAMPLE, old
    return EXAMPLE.replace(old, new, 1)


BAD = [
    ("[camera]\n", "[camera]\nsorce = 'usb:1'\n", "unknown key 'sorce' in [camera] (did you mean 'source'?)"),
    ("[journal]", "[jornal]", "unknown section [jornal] (did you mean 'journal'?)"),
    ("fps = 15", 'fps = "fast"', "key 'fps' in [camera]: expected a number, not 'fast'"),
    ("fps = 15", "fps = 500", "[camera] fps: 500 must be 1 to 120"),
    ('source = "usb:0"', 'source = "usb:"', "[camera] source: frame source 'usb:': usb: needs a device"),
    ('source = "usb:0"', 'source = "webcam:2"', "[camera] source: unknown frame source 'webcam:2'"),
    (
        "lateness_ms = 450",
        "lateness_ms = 300",
        "[camera] lateness_ms: 300 ms is too short: a card placed or taken is reported up to 5 frames",
    ),
    ('backend = "gpio"', 'backend = "usb"', "key 'backend' in [seats]: 'usb' is not one of 'gpio', 'bridge'"),
    ("buttons = [17, 27, 22, 23]", "buttons = [17, 27, 22]", "[seats] buttons: 3 pins for 4 seats"),
    ("lights = [5, 6, 13, 19]", "lights = [5, 6, 13, 17]", "[seats] pin 17 is given twice"),
    ("lights = [5, 6, 13, 19]", 'lights = [5, 6, 13, "GPIO23"]', "[seats] pin 23, GPIO23 is given twice"),
    (
        "lights = [5, 6, 13, 19]",
        "lights = [5, 6, 13, [19, 20]]",
        "key 'lights' in [seats]: expected a whole number, text or a list, not [19, 20]",
    ),
    ('"Cyd", "Dee"]', '"Ann", "Dee"]', "[seats] names: 'Ann' named twice"),
    ('"Cyd", "Dee"]', '"Cyd", ""]', "[seats] names: '' must be 1 to 20 printable characters"),
    ('backend = "gpio"', 'backend = "bridge"', '[seats] port: backend = "bridge" needs'),
    ('name = "ers"', 'name = "poker"', "[game] name: 'poker' is not one of cuckoo, eights, ers, oh-hell"),
    ('preset = "standard"', 'preset = "standrd"', "[game]: unknown ers preset 'standrd'"),
    ("# burn = 1", "burn = 7", "[game]: rules key 'burn'"),
    ("# burn = 1", "burnt = 1", "[game]: unknown rules key 'burnt' (did you mean 'burn'?)"),
    ("dealer = 0", "dealer = 4", "[game]: dealer must be a seat from 0 to 3, not 4"),
    ('calibration = "calibration.json"', 'calibration = "cal.json"', "[camera] calibration: calibration file"),
    ('calibration = "calibration.json"', 'calibration = "/dev/zero"', "calibration file /dev/zero: not a file"),
    ('# deck = "mydeck.npz"', 'deck = "mydeck.npz"', "[camera] deck:"),
    ("seat = 3\n", "seat = 4\n", "[[zones]] 'seat-3': seat 4, but the table has seats 0 to 3"),
    ('name = "pile"\nkind = "pile"', 'name = "pile"\nkind = "stock"', 'no zone of kind "pile"'),
    ("rect = [300, 200, 200, 200]", "rect = [300, 200, 200]", "[[zones]]: zone 'pile': rect must be"),
    (
        "rect = [300, 200, 200, 200]",
        "rect = [3000, 2000, 200, 200]",
        "[[zones]]: 'pile' lies wholly outside what the camera sees (x -74 to 874 mm, y -115 to 715 mm)",
    ),
    ("fsync = true", "fsync = 1", "key 'fsync' in [journal]: expected true or false, not 1"),
    ('folder = "journal"', 'folder = "' + "x" * 5000 + '"', "[journal] folder: File name too long"),
    ('folder = "journal"', 'folder = "table.toml/journal"', "journal cannot be made: "),
    ("common_anode = false", "common_anode = [true, false]", "[seats] common_anode: 2 for 4 seats"),
    ("common_anode = false", "common_anode = 1", "key 'common_anode' in [seats]: expected true or false or a list"),
]


@pytest.mark.parametrize(("old", "new", "message"), BAD, ids=[m[:40] for _, _, m in BAD])
def test_a_bad_key_is_named_with_its_file_and_section(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = _table(tmp_path, _replaced(old, new))
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}: ") and message in str(caught.value), str(caught.value)


def test_a_journal_folder_the_table_cannot_write_in_is_named(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        folder = tmp_path / "locked"
        folder.mkdir(mode=0o500)
    else:
        folder = Path("/sys/kernel")  # root writes anywhere but in the kernel's own folders
        if not folder.is_dir():
            pytest.skip("as root, with no /sys/kernel: no folder here refuses a file")
    path = _table(tmp_path, _replaced('folder = "journal"', f'folder = "{folder}"'))
    with pytest.raises(ConfigError, match=rf"\[journal\] folder: {folder} cannot be written to: "):
        load_config(path)


def test_the_zones_a_game_reads_cards_on_are_laid_out_for_it(tmp_path: Path) -> None:
    zones = EXAMPLE.split("[[zones]]")
    without = lambda name: "[[zones]]".join(z for z in zones if f'name = "{name}"' not in z)  # noqa: E731
    bidding = {"game": {"name": "oh-hell", "preset": None, "rules": {}}}
    trading = {"game": {"name": "cuckoo", "preset": None, "rules": {}}}
    config = load_config(_table(tmp_path, without("trump")))  # Egyptian Rat Screw reads only the pile
    with pytest.raises(ConfigError, match=r'The bidding game .* reads cards on a zone of kind "trump": none is laid'):
        config.changed(bidding)  # a new game asked for at the table: refused, the table plays on
    config = load_config(_table(tmp_path, without("seat-2")))
    config.changed(bidding)
    with pytest.raises(ConfigError, match=r"The trading game .* on its own seat zone: none for seat 2$"):
        config.changed(trading)
    shedding = {"game": {"name": "eights", "preset": None, "rules": {}}}
    with pytest.raises(ConfigError, match=r"The shedding game .* none for seat 2$"):
        config.changed(shedding)  # its safe cards lie on the seats' zones
    config.changed({"game": {**shedding["game"], "rules": {"safe_card": False}}})
    off = _replaced("rect = [520, 230, 140, 140]", "rect = [5200, 2300, 140, 140]")  # the trump's place, off camera
    config = load_config(_table(tmp_path, off))  # Egyptian Rat Screw reads no trump card
    with pytest.raises(ConfigError, match="'trump' lies wholly outside what the camera sees"):
        config.changed(bidding)
    config = load_config(_table(tmp_path, without("stock")))
    with pytest.raises(ConfigError, match='reads cards on a zone of kind "stock"'):
        config.changed({"game": {**trading["game"], "rules": {"all_out": "cut"}}})  # a cut lies on the seats'


def test_a_calibration_made_at_another_size_is_refused(tmp_path: Path) -> None:
    path = _table(tmp_path)
    _calibrate(tmp_path, (640, 480))
    with pytest.raises(ConfigError, match="made from 640x480 images, but the camera is set to 1280x720"):
        load_config(path)


def test_files_that_are_no_configuration_are_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[seats\nnames = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"broken\.toml: not valid TOML"):
        load_config(broken)


def test_a_bridge_table_and_a_preset_file_beside_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "house.toml").write_text('description = "ours"\n[rules]\nburn = 1\n', encoding="utf-8")
    text = _replaced('backend = "gpio"', 'backend = "bridge"\nport = "/dev/ttyACM0"\nboard_buttons = [3, 2, 1, 0]')
    text = "\n".join(line for line in text.splitlines() if not line.startswith(("buttons =", "lights =")))
    text = text.replace('preset = "standard"', 'preset = "house.toml"')
    config = load_config(_table(tmp_path, text))
    assert config.seats.backend == "bridge" and config.seats.board_buttons == (3, 2, 1, 0)
    assert config.setup(1).rules["burn"] == 1


def test_fewer_players_than_seat_zones_sit_at_a_board_as_at_the_pins(tmp_path: Path) -> None:
    text = _replaced('backend = "gpio"', 'backend = "bridge"\nport = "/dev/ttyACM0"')  # the board's inputs, a seat each
    text = "\n".join(line for line in text.splitlines() if not line.startswith(("buttons =", "lights =")))
    three = {"seats": {"names": ["Ann", "Bob", "Cyd"]}}
    config = load_config(_table(tmp_path, text), three)  # seat 3's zone stays, its seat dark
    assert config.seats.names == ("Ann", "Bob", "Cyd")
    config.changed({"seats": {"names": ["Al", "Bo"]}})
    far = text.replace("seat = 3\n", "seat = 8\n")
    with pytest.raises(ConfigError, match="'seat-3': seat 8, but the table has seats 0 to 7"):
        load_config(_table(tmp_path, far))


def test_rgb_lights_are_three_pins_a_seat(tmp_path: Path) -> None:
    rgb = "lights = [[5, 6, 13], [12, 16, 20], [21, 26, 24], [4, 14, 15]]"
    config = load_config(_table(tmp_path, _replaced("lights = [5, 6, 13, 19]", rgb)))
    assert config.seats.lights[3] == (4, 14, 15)
    clash = _replaced("lights = [5, 6, 13, 19]", rgb.replace("[4, 14, 15]", "[4, 14, 27]"))
    with pytest.raises(ConfigError, match="pin 27 is given twice"):
        load_config(_table(tmp_path, clash))


def test_common_anode_lights_for_every_seat_or_one_a_seat(tmp_path: Path) -> None:
    assert load_config(_table(tmp_path)).seats.anodes() == (False,) * 4
    mixed = _replaced("common_anode = false", "common_anode = [false, true, false, true]")
    assert load_config(_table(tmp_path, mixed)).seats.anodes() == (False, True, False, True)


def test_a_section_written_as_a_value_is_named_though_the_command_line_sets_keys_of_it(tmp_path: Path) -> None:
    """``game = "cuckoo"`` at the top, or ``[[mqtt]]``: named, with or without the command line's
    keys for that section (``cardtable run`` always passes some)."""
    lines = EXAMPLE.splitlines(keepends=True)
    no_game = "".join(lines[:5] + lines[13:])  # the [game] section and its rules left out
    for text, section in (('game = "cuckoo"\n' + no_game, "game"), (EXAMPLE.replace("[mqtt]", "[[mqtt]]"), "mqtt")):
        path = _table(tmp_path, text)
        for overrides in ({}, {"game": {"seed": 1}, "mqtt": {}}):
            with pytest.raises(ConfigError, match=rf"\[{section}\] must be a section of keys"):
                load_config(path, overrides)


def test_a_configuration_nested_past_any_table_s_depth_is_named(tmp_path: Path) -> None:
    deep = _table(tmp_path, EXAMPLE + "\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(deep)


def test_a_recordings_path_is_taken_from_the_configurations_folder(tmp_path: Path) -> None:
    (tmp_path / "frames").mkdir()
    config = load_config(_table(tmp_path, _replaced('source = "usb:0"', 'source = "folder:frames"')))
    assert config.camera.source == f"folder:{tmp_path.resolve() / 'frames'}"
    config = load_config(_table(tmp_path, _replaced('source = "usb:0"', 'source = "frames"')))
    assert config.camera.source == str(tmp_path.resolve() / "frames")
    config = load_config(_table(tmp_path, _replaced('source = "usb:0"', 'source = "still:table.png"')))
    assert config.camera.source == f"still:{tmp_path.resolve() / 'table.png'}"
    assert load_config(_table(tmp_path)).camera.source == "usb:0"


def test_a_recording_that_is_not_there_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"\[camera\] source: the recording .*takes does not exist"):
        load_config(_table(tmp_path, _replaced('source = "usb:0"', 'source = "folder:takes"')))
