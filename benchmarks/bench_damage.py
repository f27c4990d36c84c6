"""Damaged input, as a flaky SD card, a bad edit or a bug would make it: journals mutated at
random, each read and replayed as the table (``resume``) and ``cardtable replay`` do; and
configurations mutated at random, each read as ``cardtable run`` reads it (``load_config``).

A mutated configuration must be read or refused with one ``ConfigError`` naming what was wrong;
never a traceback.

Every mutated journal must be refused or salvaged with the file and line named, or read whole
and replayed; never a traceback, and never damage read as a game without a word: a byte changed,
a line lost, doubled or cut. A journal read whole must be one whose checksums all still follow
on: a field changed and the lines written again from there, as a bug in the table would write
them. ``python -m benchmarks damage``: 1,000 mutations; the
tests run fewer (``tests/benchmarks/test_bench_damage.py``).
"""

from __future__ import annotations

import json
import random
import tempfile
import traceback
from collections import Counter
from pathlib import Path

from table.errors import CardtableError
from table.games import setup_game
from table.journal import JournalError, JournalWriter, checksummed, journal_line, line_checksum, read_journal
from table.replay import Replay

ODD_VALUES = [None, True, -1, 0, 2**70, 1.5, "", "x", "5ile", [], [1], {}, {"a": 1}, "AS", "\u0000"]
MUTATIONS = ("byte", "byte", "field", "field", "double", "drop", "cut")
FAILURES = ("traceback", "read as a game")  # what must never happen


def mutate(lines: list[bytes], rng: random.Random) -> tuple[list[bytes], bool]:
    """One mutation of a journal's lines, and whether their checksums all still follow on."""
    lines = list(lines)
    at = rng.randrange(len(lines))
    how = rng.choice(MUTATIONS)
    if how == "byte":
        line = bytearray(lines[at])
        line[rng.randrange(len(line))] = rng.randrange(256)
        lines[at] = bytes(line)
        return lines, False
    if how == "field":
        data = json.loads(lines[at])
        checked = data.pop("crc", None) is not None
        key = rng.choice(sorted(data))
        data[key] = rng.choice(ODD_VALUES)
        if not checked:  # a record written by hand: no checksums to carry on
            lines[at] = json.dumps(data).encode()
            return lines, True
        lines[at] = checksummed(data).encode()  # the set-up line's checksum is its own
        if at:
            lines[at:] = written_on(lines[at - 1], [data, *(json.loads(line) for line in lines[at + 1 :])])
        else:
            lines[1:] = written_on(lines[0], [json.loads(line) for line in lines[1:]])
        return lines, True
    if how == "double":
        lines.insert(at, lines[at])
    elif how == "drop" and len(lines) > 1:
        del lines[at]
        if at == len(lines):  # the last line lost: as if the table had stopped before writing it
            return lines, True
    else:
        lines[at] = lines[at][: rng.randrange(len(lines[at]))]
    return lines, False


def written_on(before: bytes, objects: list[dict]) -> list[bytes]:
    """``objects`` as the table writes lines after ``before``: each checksum carried on."""
    out, after = [], line_checksum(before)
    for data in objects:
        data.pop("crc", None)
        line, after = journal_line(data, after)
        out.append(line.encode())
    return out


def simulated_journal(game: str, seed: int, path: Path) -> list[bytes]:
    """A simulated game's journal, as the table writes it: its lines."""
    from sim.games import SIMULATIONS

    sim = SIMULATIONS[game](setup_game(game, players=3, seed=seed))
    with JournalWriter(path, sim.setup, fsync=False, start_ns=0, number=1) as journal:
        sim.journal = journal
        sim.run()
    return path.read_bytes().split(b"\n")[:-1]


def judge(lines: list[bytes], count: int, rng: random.Random, folder: Path) -> tuple[Counter[str], list[str]]:
    """``count`` mutations of one journal's lines, each read and replayed: how each ended
    (``refused``, ``salvaged``, ``whole``, or one of ``FAILURES``), and what each failure was."""
    outcomes: Counter[str] = Counter()
    failures = []
    for n in range(count):
        mutated, still_checked = mutate(lines, rng)
        path = folder / f"mutated-{n}.jsonl"
        path.write_bytes(b"\n".join(mutated) + b"\n")
        try:
            journal = read_journal(path, salvage=True)
            list(Replay(journal).lines())
        except CardtableError as exc:  # JournalError, or a set-up its rules refuse: one line for the user
            named = not isinstance(exc, JournalError) or f"{path.name}:" in str(exc)
            outcomes["refused" if named else "read as a game"] += 1
            continue
        except Exception:
            outcomes["traceback"] += 1
            failures.append(f"{path.read_bytes()!r}: {traceback.format_exc(limit=-3)}")
            continue
        if journal.damage is not None:
            outcomes["salvaged"] += 1
        elif still_checked:
            outcomes["whole"] += 1
        else:
            outcomes["read as a game"] += 1
            failures.append(f"damage read as a game: {path.read_bytes()!r}")
    return outcomes, failures


ODD_TOML = [
    "[]", "{}", '"\\u0000"', "-1", "0", "1e400", "nan", '"/dev/zero"', '"/bin/ls"', "true", '"x"',
    '"' + "x" * 5000 + '"', "[" * 300 + "]" * 300, "{a = {b = {c = 1}}}", '"../../../etc/passwd"', "2024-01-01",
    '"\\u00e9\\u00e9"', "[1, \"a\"]",
]  # fmt: skip


def mutate_config(text: str, rng: random.Random) -> str:
    """One mutation of a configuration's text: a value, a section's brackets, a line."""
    lines = text.splitlines()
    at = rng.randrange(len(lines))
    line = lines[at]
    how = rng.choice(["value", "value", "value", "section", "line", "byte", "top"])
    if how == "value" and "=" in line and not line.lstrip().startswith("#"):
        key = line.split("=", 1)[0]
        lines[at] = f"{key}= {rng.choice(ODD_TOML)}"
    elif how == "section" and line.startswith("["):
        lines[at] = (
            "[" + line.strip("[]").split("]")[0] + "]"
            if line.startswith("[[")
            else "[" + line.split("#")[0].strip() + "]"
        )
    elif how == "line":
        if rng.random() < 0.5:
            del lines[at]
        else:
            lines.insert(at, line)
    elif how == "top":
        lines.insert(
            0, f"{rng.choice(['game', 'seats', 'camera', 'journal', 'mqtt', 'zones', 'x'])} = {rng.choice(ODD_TOML)}"
        )
    else:
        chars = list(line or " ")
        chars[rng.randrange(len(chars))] = chr(rng.randrange(1, 0x2FF))
        lines[at] = "".join(chars)
    return "\n".join(lines) + "\n"


def _written(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


def judge_configs(text: str, count: int, rng: random.Random, folder: Path) -> tuple[Counter[str], list[str]]:
    """``count`` mutations of one configuration, each read as ``cardtable run`` reads it: how
    each ended (``read``, ``refused`` or ``traceback``), and what each traceback was."""
    from table.config import load_config
    from vision.calibration import calibrate_from_points

    corners = [[0.0, 0.0], [1280.0, 0.0], [1280.0, 720.0], [0.0, 720.0]]  # the example's camera: 1280 x 720
    calibrate_from_points(corners, corners, (1280, 720)).save(folder / "calibration.json")
    load_config(_written(folder / "table.toml", text))  # the configuration itself is read
    outcomes: Counter[str] = Counter()
    failures = []
    for n in range(count):
        path = _written(folder / f"table-{n}.toml", mutate_config(text, rng))
        try:
            config = load_config(path)
            config.resolve(config.journal.folder)  # what cardtable run does next with what it read
            config.mqtt_settings()
        except CardtableError as exc:
            outcomes["refused" if "\n" not in str(exc) else "traceback"] += 1
        except Exception:
            outcomes["traceback"] += 1
            failures.append(f"{path.read_text(errors='replace')[:2000]!r}: {traceback.format_exc(limit=-3)}")
        else:
            outcomes["read"] += 1
    return outcomes, failures


def main(count: int = 1000) -> None:
    games = ("ers", "cuckoo", "oh-hell", "eights")
    print(f"Journals mutated at random ({count} mutations over {len(games)} games' journals):")
    total: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n, game in enumerate(games):
            lines = simulated_journal(game, n, Path(tmp) / f"{game}.jsonl")
            outcomes, failures = judge(lines, count // len(games), random.Random(n), Path(tmp))
            total.update(outcomes)
            for failure in failures[:3]:
                print(f"  {game}: {failure}")
    print("  " + ", ".join(f"{kind} {total[kind]}" for kind in ("refused", "salvaged", "whole", *FAILURES)))
    print(f"Configurations mutated at random ({count} mutations of table.example.toml):")
    example = (Path(__file__).resolve().parents[1] / "table.example.toml").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        outcomes, failures = judge_configs(example, count, random.Random(1), Path(tmp))
    for failure in failures[:3]:
        print(f"  {failure}")
    print("  " + ", ".join(f"{kind} {outcomes[kind]}" for kind in ("read", "refused", "traceback")))
