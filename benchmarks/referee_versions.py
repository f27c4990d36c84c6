"""The referees of this checkout against those of an earlier commit, on the same games:
``python -m benchmarks versions --against REV``.

Games are simulated (and, with OpenSpiel installed, the bidding game's random hands) with this
checkout and stored as set-ups and events; each checkout then replays them, fresh referee per
game, in a process of its own, and times each game kind against a fixed pure-Python workload
in turn, round after round. Processes run apart on a shared machine, so only those ratios are
compared: how many times faster this checkout's referee is. Rules keys the earlier checkout
does not know are left out of its set-ups. This checkout also times a stand-in that reads no
rule (``referee_floor``): how much faster any Python referee could be, and what of ten times
faster would be left for the rules.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import oh_hell_openspiel
from benchmarks.bench_engine import simulated_games

ROOT = Path(__file__).resolve().parent.parent
CASES = [
    ("ers", "standard", 4, 6),
    ("cuckoo", "cuckoo", 5, 20),
    ("oh-hell", "classic", 4, 20),
    ("eights", "screw-your-neighbour", 4, 20),
]

# Run by each checkout's own Python in its own folder: only names both checkouts have.
REPLAY = """
import dataclasses, json, random, statistics, sys, time
from table.events import event_from_json
from table.games import GameSetup, game_named

def setup(s):
    known = {f.name for f in dataclasses.fields(game_named(s["game"]).rules)}
    return GameSetup.from_json({**s, "rules": {k: v for k, v in s["rules"].items() if k in known}})

def workload():
    rng, counts = random.Random(1), {}
    for i in range(60_000):
        k = rng.randrange(1000)
        counts[k] = counts.get(k, 0) + i % 7
    return sorted(counts.items())

def replay(games):
    ended = 0
    for s, events in games:
        ref = s.referee()
        ref.start(0)
        for event in events:
            ref.handle(event)
        ref.advance(events[-1].t_ns)
        ended += ref.finished
    return ended

floor = sys.argv[2:] == ["floor"]  # this checkout only: the stand-in that reads no rule, timed too
if floor:
    from benchmarks import referee_floor
out = {}
for name, stored in json.load(open(sys.argv[1])).items():
    games = [(setup(s), [event_from_json(e) for e in ev]) for s, ev in stored]
    plan = referee_floor.planned(games) if floor else None
    ours, base, least = [], [], []
    for _ in range(9):
        start = time.process_time(); ended = replay(games); ours.append(time.process_time() - start)
        start = time.process_time(); workload(); base.append(time.process_time() - start)
        if floor:
            start = time.process_time(); referee_floor.replay(plan); least.append(time.process_time() - start)
    inputs, base = sum(len(ev) for _, ev in games), statistics.median(base)
    out[name] = [statistics.median(ours) / base, statistics.median(ours) / inputs, ended]
    if floor:
        out[name] += [statistics.median(least) / base, statistics.median(least) / inputs]
print(json.dumps(out))
"""


def stored_games() -> dict[str, list]:
    games = {f"{g} / {p}, {n} players": simulated_games(count, n, g, p) for g, p, n, count in CASES}
    try:
        hands = oh_hell_openspiel.random_games(300)
        games["oh-hell, OpenSpiel's 300 random hands"] = [(h.setup, h.events) for h in hands]
    except ImportError:
        print("(OpenSpiel is not installed: its random hands are left out)")
    return {k: [(s.to_json(), [e.to_json() for e in ev]) for s, ev in v] for k, v in games.items()}


def replay_in(checkout: Path, games: Path, floor: bool = False) -> dict[str, list[float]]:
    """Each game kind's time against the workload, its time an input and how many games ended; with
    ``floor`` (this checkout only), then the stand-in's time against the workload and an input."""
    command = [sys.executable, "-c", REPLAY, str(games), *(["floor"] if floor else [])]
    done = subprocess.run(command, cwd=checkout, capture_output=True, text=True)
    if done.returncode:
        why = done.stderr.strip().splitlines()[-1:] or ["no message"]
        raise SystemExit(f"versions: the games could not be replayed in {checkout}: {why[0]}")
    return json.loads(done.stdout)


def main(against: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        earlier = Path(tmp) / "earlier"
        made = subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(earlier), against],
            capture_output=True,
            text=True,
        )
        if made.returncode:
            raise SystemExit(f"versions: no checkout of {against!r} to compare with: {made.stderr.strip()}")
        try:
            games = Path(tmp) / "games.json"
            games.write_text(json.dumps(stored_games()))
            then = replay_in(earlier, games)
            now = replay_in(ROOT, games, floor=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(earlier)], check=True)
    print(f"The referees against commit {against}, on the same games (each against a fixed workload):")
    for name in now:
        print(
            f"  {name:42s} then {then[name][1] * 1e6:6.2f} us an input, now {now[name][1] * 1e6:6.2f};"
            f" {then[name][0] / now[name][0]:5.1f} times faster"
        )
        # In this run's microseconds: the earlier referee's time, through the workload both timed.
        target = then[name][0] * now[name][1] / now[name][0] / 10
        most, room = then[name][0] / now[name][3], target - now[name][4]
        left = f"{room * 1e6:.2f} us an input" if room > 0 else "nothing"
        print(
            f"    a referee that reads no rule: {now[name][4] * 1e6:.2f} us an input, at most {most:.0f} times faster"
            f" than then; at ten times, {left} left for the rules, which take"
            f" {(now[name][1] - now[name][4]) * 1e6:.2f} us now"
        )
        if then[name][2] != now[name][2]:  # both replays must have played the games to their ends alike
            print(f"    but the games ended differently: {then[name][2]} then, {now[name][2]} now")
