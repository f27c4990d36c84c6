"""The cardtable command: every user error is one clear line and exit status 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from table.cli import main

CASELLA = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"


def test_playout_json(capsys: pytest.CaptureFixture[str]) -> None:
    deal = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
    assert main(["playout", "--rules", "beggar-my-neighbour", "--deal", deal, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"cards": 8344, "tricks": 1164, "winner": 1, "outcome": "win"}


def test_playout_detects_a_cycle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["playout", "--rules", "beggar-my-neighbour", "--deal", CASELLA, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == "cycle" and out["winner"] is None and out["cycle"]["tricks"] == 62


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["playout", "--deal", "AKX/--"], "'X' is not A, K, Q, J"),
        (["playout", "--deal", "10-/--"], "hand 1 '10-': '1', '0' are not A, K, Q, J or '-' (a card 2 to 10 is '-')"),
        (["playout", "--rules", "standard", "--deal", "A/-"], "without slaps"),
        (["playout", "--rules", "nonesuch", "--deal", "A/-"], "unknown ers preset 'nonesuch'"),
        (["sim", "--fast", "--quiet", "--set", "burn=9"], "'burn': 9 is outside 1..3"),
        (["sim", "--fast", "--quiet", "--set", "slapz=true"], "unknown rules key 'slapz' (did you mean 'slaps'?)"),
        (["sim", "--fast", "--quiet", "--players", "1"], "needs 2 to 52 players"),
        (["sim", "--fast", "--quiet", "--set", "run=false", "--set", "run_wrap=true"], "'run_wrap' is set"),
        (["replay", "/nonexistent/journal.jsonl"], "cannot read journal"),
        (["replay", "/dev/zero"], "/dev/zero: not a journal: it is not a plain file"),
        (["sim", "--fast", "--quiet", "--lateness-ms", "100"], "--lateness-ms 100 is too short"),
        (["sim", "--fast", "--quiet", "--seats", "bridge"], "needs a real pace (speed > 0)"),
        (["sim", "--fast", "--quiet", "--players", "13"], "serve 12 seats, not 13: play more with --seats actions"),
    ],
)
def test_user_errors_are_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardtable: error: ")
    assert message in err
    assert err.count("\n") == 1


# The simulator's camera reports and finished gestures: whole games in a second (tests/sim/test_sim_end_to_end.py
# plays them on rendered frames and mock pins).
QUICK = ["--camera", "reports", "--seats", "actions"]


@pytest.mark.parametrize(("option", "value"), [("--speed", "-1"), ("--speed", "nan"), ("--max-cards", "-1")])
def test_sim_refuses_a_pace_or_a_count_that_is_no_number_over_0(option: str, value: str, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["sim", option, value])
    assert stopped.value.code == 2 and f"{value!r} is not a number over 0" in capsys.readouterr().err


def test_rules_shows_the_game_s_own_rules_with_the_keys_set_when_no_preset_is_named(capsys) -> None:
    assert main(["rules", "--game", "cuckoo", "--set", "lives=5"]) == 0
    assert json.loads(capsys.readouterr().out)["lives"] == 5


def test_send_names_a_missing_configuration_once(capsys) -> None:
    assert main(["send", "--config", "/nonexistent/table.toml", "pause"]) == 2
    assert capsys.readouterr().err == "cardtable: error: /nonexistent/table.toml: no such configuration file\n"


def test_sim_writes_over_no_file_it_is_given_to_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = tmp_path / "notes.txt"
    kept.write_text("precious", encoding="utf-8")
    assert main(["sim", "--fast", *QUICK, "--seed", "4", "--sound-log", str(kept)]) == 2
    assert "notes.txt: already exists; it is never written over" in capsys.readouterr().err
    same = tmp_path / "both.log"
    assert main(["sim", "--fast", *QUICK, "--sound-log", str(same), "--journal", str(same)]) == 2
    assert "name one file" in capsys.readouterr().err and not same.exists()
    assert kept.read_text(encoding="utf-8") == "precious"


def test_a_journal_without_names_is_told_with_each_seat_the_same_player(capsys: pytest.CaptureFixture[str]) -> None:
    record = Path(__file__).resolve().parents[2] / "docs" / "records" / "oh-hell.jsonl"  # seat 0 wins, 11 to 10 to 0
    assert main(["replay", "--pretty", str(record)]) == 0
    told = capsys.readouterr().out.splitlines()
    assert told[-2].endswith("totals Seat 1 11, Seat 3 10, Seat 2 0"), told[-2]
    assert told[-1].endswith("Seat 1 wins the game: highest total after 2 hands"), told[-1]


def test_sim_journal_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "game.jsonl"
    assert main(["sim", "--fast", *QUICK, "--seed", "4", "--players", "3", "--journal", str(journal)]) == 0
    shown = capsys.readouterr().out
    last = shown.splitlines()[-1]
    assert re.fullmatch(r"(Ann|Bob|Cyd) wins the game, holding all the cards! \(\d+ cards played\)", last), last
    assert "truth" not in shown  # the simulator's own check is for --verbose
    # The recorded game told again as the terminal told it, line for line.
    assert main(["replay", "--pretty", str(journal)]) == 0
    told = capsys.readouterr().out
    assert told.splitlines()[0].startswith("Each line begins with the time and the seats' lights, Ann, Bob, Cyd")
    unlit = lambda lines: [re.sub(r"^( *[\d.]+s  )\S+  ", r"\1", line) for line in lines]  # noqa: E731
    assert unlit(told.splitlines()[1:]) == unlit(shown.splitlines()[1:-1])  # the lights follow the replay's clock
    assert main(["replay", str(journal)]) == 0
    first = capsys.readouterr().out
    assert main(["replay", str(journal)]) == 0
    assert capsys.readouterr().out == first
    lines = [json.loads(line) for line in first.splitlines()]
    assert lines[-1]["kind"] == "final-state"
    assert [d["kind"] for d in lines].count("game-won") == 1


@pytest.mark.slow
def test_sim_is_repeatable_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """On rendered frames read by vision and presses on mock pins too."""
    for parts in ([], QUICK):
        argv = ["sim", "--fast", "--seed", "11", "--rules", "screw", "--max-cards", "40", *parts]
        main(argv)
        first = capsys.readouterr().out
        main(argv)
        assert capsys.readouterr().out == first and "plays" in first


def test_rules_lists_and_shows_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    listing = capsys.readouterr().out
    for name in ("standard", "screw", "wikipedia", "beggar-my-neighbour"):
        assert name in listing
    assert main(["rules", "beggar-my-neighbour"]) == 0
    assert json.loads(capsys.readouterr().out)["slaps"] is False


def test_console_script_is_installed() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "table.cli", "playout", "--deal", "J-/--", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winner"] == 0


def test_the_cards_a_simulated_game_says_were_played_are_those_its_record_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "game.jsonl"
    argv = ["sim", "--fast", *QUICK, "--game", "eights", "--seed", "1", "--players", "4", "--journal", str(journal)]
    assert main(argv) == 0
    said = re.search(r"\((\d+) cards played\)$", capsys.readouterr().out.splitlines()[-1])
    assert said is not None
    assert main(["replay", str(journal)]) == 0
    assert int(said[1]) == capsys.readouterr().out.count('"kind":"card-played"') > 0  # not the cards dealt


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["--game", "cuckoo", "--players", "5"], ["Round 1", "trades with", "lose"]),
        (["--game", "cuckoo", "--rules", "screw-your-neighbor", "--players", "4"], ["point", "fewest points"]),
        (["--game", "oh-hell"], ["Hand 1: 1 card each", "bids", "takes trick"]),
        (["--game", "oh-hell", "--rules", "squares", "--players", "4"], ["Hand 1: 12 cards each", "Hand 12 scored"]),
    ],
)
def test_sim_plays_the_trading_and_bidding_games(
    argv: list[str], shown: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "game.jsonl"
    assert main(["sim", "--fast", *QUICK, "--seed", "5", *argv, "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    last = out.splitlines()[-1]  # who won and how, last
    assert re.search(
        r" the game: .*\(\d+ lives lost\)$" if "cuckoo" in argv else r" the game: .*\(\d+ cards played\)$", last
    )
    for text in shown:
        assert text in out
    assert main(["replay", str(journal)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [d["kind"] for d in lines].count("game-over") == 1
    assert lines[-1]["state"]["state"]["winners"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["sim", "--game", "cuckoo", "--players", "2"], "needs 3 to 26 players"),
        (["sim", "--game", "cuckoo", "--set", "kings=sometimes"], "rules key 'kings'"),
        (["sim", "--game", "oh-hell", "--set", "max_hand=20"], "rules key 'max_hand'"),
        (["sim", "--game", "oh-hell", "--rules", "spades"], "unknown oh-hell preset 'spades'"),
    ],
)
def test_round_game_errors_are_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--fast", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_rules_lists_every_games_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--game", "cuckoo"]) == 0
    listing = capsys.readouterr().out
    for name in ("cuckoo", "screw-your-neighbor", "betting", "ackerson-kings-up", "murphy"):
        assert name in listing
    assert main(["rules", "--game", "oh-hell", "squares"]) == 0
    assert json.loads(capsys.readouterr().out)["scoring"] == "squares"


def test_rules_takes_a_game_or_another_games_preset_without_its_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "cuckoo"]) == 0  # a game where a preset goes: its presets
    assert main(["rules", "--game", "cuckoo"]) == 0
    first, second = capsys.readouterr().out.split("aces-high")[1:]
    assert first == second
    assert main(["rules", "squares"]) == 0  # only the bidding game ships it
    assert json.loads(capsys.readouterr().out)["scoring"] == "squares"
    assert main(["rules", "--game", "ers", "squares"]) == 2
    assert "'squares' is a preset of oh-hell: name that game too" in capsys.readouterr().err
    assert main(["rules", "--game", "ers", "cuckoo"]) == 2
    assert "'cuckoo' is another game's name: name it as the game" in capsys.readouterr().err


def test_ctrl_c_while_the_command_line_loads_is_an_interruption(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sim.cli
    import table.__main__

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(sim.cli, "sim_parser", interrupted)  # Ctrl-C as the simulator loads
    assert main(["sim", "--fast"]) == 130
    assert capsys.readouterr().err == "cardtable: interrupted\n"

    class Interrupting:  # Ctrl-C as the command line itself loads
        def find_spec(self, name: str, path: object = None, target: object = None) -> None:
            if name == "table.cli":
                raise KeyboardInterrupt

    monkeypatch.delitem(sys.modules, "table.cli")
    monkeypatch.setattr(sys, "meta_path", [Interrupting(), *sys.meta_path])
    assert table.__main__.main() == 130
    assert capsys.readouterr().err == "cardtable: interrupted\n"


def test_the_simulators_lines_start_with_the_seats_lights(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--fast", "--seed", "7", "--players", "4", "--max-cards", "8"]) == 0
    legend, *lines = capsys.readouterr().out.splitlines()
    assert legend.startswith("Each line begins with the time and the seats' lights, Ann, Bob, Cyd, Dee from the left:")
    assert lines[0].split()[1] == "·●··"  # Bob, after the dealer, leads: his light is lit
    assert lines[1].split()[1] == "··●·" and "Bob plays" in lines[1]  # then it is Cyd's turn


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["playout", "--deal", "--"], 'a deal is hands separated by "/"'),
        (["playout", "--deal", "A-/K-", "--rules", "/bin/ls"], "is not UTF-8 text"),
        (["playout", "--deal", "A-/K-", "--rules", "/dev/zero"], "is not a plain file"),
    ],
)
def test_bad_command_lines_are_one_line_and_exit_2(args: list[str], says: str) -> None:
    run = subprocess.run([sys.executable, "-m", "table.cli", *args], capture_output=True, text=True, check=False)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and says in run.stderr


def test_a_preset_files_own_mistakes_are_named_as_the_preset_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "value.toml").write_text('[rules]\nburn = "1"\n')
    (tmp_path / "base.toml").write_text('based_on = "standrd"\n')
    (tmp_path / "top.toml").write_text("burn = 1\n")
    (tmp_path / "bom.toml").write_bytes(b"\xef\xbb\xbf[rules]\nburn = 3\n")  # as Windows' Notepad saves
    for name, says in (
        ("value", "preset 'VALUE': rules key 'burn': expected a whole number, not '1'"),
        ("base", "preset 'VALUE': based_on: unknown ers preset 'standrd'"),
        ("top", "preset 'VALUE': unknown key(s) burn (a preset's rules go under [rules])"),
    ):
        path = str(tmp_path / f"{name}.toml")
        assert main(["rules", path]) == 2
        assert capsys.readouterr().err.startswith(f"cardtable: error: {says.replace('VALUE', path)}")
    assert main(["rules", str(tmp_path / "value.toml"), "--set", "burn=3"]) == 0  # set right on the command line
    assert main(["rules", "standard", "--set", "burn=x"]) == 2  # the command line's own mistake is its own
    assert capsys.readouterr().err.startswith("cardtable: error: rules key 'burn'")
    assert main(["rules", str(tmp_path / "bom.toml")]) == 0
    assert json.loads(capsys.readouterr().out)["burn"] == 3


def test_names_the_configuration_refuses_are_shown_as_they_were_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.live_tables import rendered_table

    config = str(rendered_table(tmp_path, frames=1))
    assert main(["run", "--config", config, "--names", "Ann Bob Cyd", "--check"]) == 2
    err = capsys.readouterr().err
    assert "needs 2 to 52 players, not 1" in err, err
    assert err.endswith("(--names was read as 1 name: 'Ann Bob Cyd'; separate the names with commas)\n")
    assert main(["run", "--config", config, "--names", "Ann,Bob,", "--check"]) == 2
    assert capsys.readouterr().err.endswith("(--names was read as 3 names: 'Ann', 'Bob', '')\n")


def test_a_preset_file_named_on_the_command_line_is_found_from_where_it_is_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.live_tables import rendered_table

    (tmp_path / "table").mkdir()
    config = str(rendered_table(tmp_path / "table", frames=1))
    here = tmp_path / "here"
    here.mkdir()
    (here / "mine.toml").write_text('[rules]\nburn = "x"\n')  # refused, by its own name: it was found
    monkeypatch.chdir(here)
    for named in ("./mine.toml", "mine.toml"):
        assert main(["run", "--config", config, "--rules", named, "--check"]) == 2
        assert f"preset '{here / 'mine.toml'}': rules key 'burn'" in capsys.readouterr().err
    import table.control

    sent: list[dict] = []
    monkeypatch.setattr(table.control, "send_command", lambda path, data: (sent.append(data), (True, "ok"))[1])
    assert main(["send", "--config", config, "set", "--rules", "mine.toml"]) == 0
    assert main(["send", "--config", config, "set", "--rules", "screw"]) == 0
    assert [data["rules"] for data in sent] == [str(here / "mine.toml"), "screw"]  # a file as found from here


def test_league_says_at_once_that_no_broker_answers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["league", "--mqtt", "mqtt://127.0.0.1:1"]) == 2  # nothing listens on port 1
    assert capsys.readouterr().err == (
        "cardtable: error: cannot reach the MQTT broker at 127.0.0.1:1: Connection refused\n"
    )


def test_a_nul_byte_in_a_configuration_is_named(tmp_path: Path) -> None:
    from table.config import ConfigError, load_config

    path = tmp_path / "table.toml"
    path.write_text('[journal]\nfolder = "jour\\u0000nal"\n')
    with pytest.raises(ConfigError, match=r"\[journal\]\.folder: .* holds a NUL byte"):
        load_config(path)
