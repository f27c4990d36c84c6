"""The bridge's wire protocol: framing, checksums, messages, and a decoder that survives anything.

The same ``protocol.py`` runs on the board under MicroPython: one test runs it there (the
WebAssembly build of MicroPython under Node) and checks it frames bytes exactly as CPython does.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[2]
MICROPYTHON = ROOT / ".cache" / "micropython"

MESSAGES = [
    (p.HELLO, 1, (1,), ""),
    (p.VERSION, 2, (1, 30, 8, 8), "cardtable-pico 1.0"),
    (p.EDGE, 3, (7, 1, (1 << 30) - 1, 65535), ""),
    (p.LIGHT, 4, (2, p.FLASH, 255, 0, 16, 3, 400), ""),
    (p.ACK, 0, (4,), ""),
    (p.PING, 255, (65535,), ""),
    (p.PONG, 9, (65535, 123456789, 123456900), ""),
    (p.ERROR, 10, (p.E_UNKNOWN,), "unexpected message type 77"),
    (p.HEARTBEAT, 11, (0, 0, 17, 0b101), ""),
    (p.RESEND, 12, (65534,), ""),
]


def test_crc_check_value() -> None:
    assert p.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_removes_every_zero(data: bytes) -> None:
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: p.NAMES[m[0]])
def test_every_message_round_trips(message) -> None:
    kind, seq, fields, text = message
    frame = p.encode(kind, seq, fields, text)
    assert frame.startswith(b"\x00") and frame.endswith(b"\x00") and frame.count(0) == 2
    assert p.decode(frame[1:-1]) == message


def test_bad_frames_say_what_is_wrong() -> None:
    good = p.encode(p.EDGE, 1, (1, 1, 5, 0))[1:-1]
    raw = bytearray(p.cobs_decode(good))
    raw[3] ^= 0x40
    cases = {
        "crc": p.cobs_encode(bytes(raw)),
        "short": p.cobs_encode(b"\x03\x01"),
        "cobs": b"\x05\x01",
    }
    for reason, frame in cases.items():
        with pytest.raises(p.ProtocolError) as err:
            p.decode(frame)
        assert err.value.reason == reason
    unknown = bytes([0x77, 1])
    crc = p.crc16(unknown)
    with pytest.raises(p.ProtocolError, match="unknown message type 119"):
        p.decode(p.cobs_encode(unknown + bytes([crc >> 8, crc & 0xFF])))
    with pytest.raises(p.ProtocolError, match="edge carries no text"):
        p.encode(p.EDGE, 1, (1, 1, 5, 0), "hello")


def test_the_decoder_resynchronises_after_garbage_and_torn_frames() -> None:
    edge = p.encode(p.EDGE, 1, (2, 1, 1000, 0))
    pong = p.encode(p.PONG, 2, (7, 2000, 2010))
    stream = b"\xff\x13garbage" + edge[:4] + b"\x00" + edge + b"\x00\x00" + pong[:3] + bytes(200) + pong
    decoder = p.Decoder()
    got = []
    for i in range(0, len(stream), 7):  # arriving in pieces, as serial reads do
        got += decoder.feed(stream[i : i + 7])
    assert [m[0] for m in got] == [p.EDGE, p.PONG]
    assert sum(decoder.errors.values()) >= 2


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.lists(st.sampled_from(range(len(MESSAGES))), min_size=1, max_size=12),
    st.dictionaries(st.integers(0, 12), st.binary(min_size=1, max_size=80), max_size=6),
    st.integers(1, 40),
)
def test_fuzz_every_frame_after_the_garbage_is_recovered(picks, junk, chunk) -> None:
    """Garbage between frames, the stream read in pieces: every frame comes out, in order. The zero
    before each frame ends the garbage, so line noise costs no frame it did not touch."""
    stream = bytearray()
    expected = []
    for n, i in enumerate(picks):
        if n in junk:
            stream += junk[n]
        expected.append(MESSAGES[i])
        stream += p.encode(*MESSAGES[i][:3], MESSAGES[i][3])
    decoder = p.Decoder()
    got = []
    for k in range(0, len(stream), chunk):
        got += decoder.feed(bytes(stream[k : k + chunk]))
    assert got == expected


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.lists(st.sampled_from(range(len(MESSAGES))), min_size=1, max_size=12),
    st.lists(st.integers(0, 10_000), max_size=8),
)
def test_fuzz_damaged_bytes_never_crash_or_invent_a_message(picks, flips) -> None:
    stream = bytearray(b"".join(p.encode(*MESSAGES[i][:3], MESSAGES[i][3]) for i in picks))
    for pos in flips:
        stream[pos % len(stream)] ^= 1 << (pos % 8)
    got = p.Decoder().feed(bytes(stream))
    assert all(m in MESSAGES for m in got)
    assert len(got) <= len(picks)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2_000))
def test_fuzz_random_bytes_never_crash_the_decoder(data: bytes) -> None:
    decoder = p.Decoder()
    decoder.feed(data)
    decoder.feed(p.encode(p.PING, 1, (5,)))  # and it still reads a good frame after a zero
    assert decoder.feed(b"\x00" + p.encode(p.PING, 2, (6,)))[-1] == (p.PING, 2, (6,), "")


def _node_ready() -> bool:
    return shutil.which("node") is not None and (MICROPYTHON / "node_modules" / "@micropython").is_dir()


def test_the_same_source_runs_under_micropython(tmp_path: Path) -> None:
    script = tmp_path / "check.py"
    script.write_text(
        "import json\n"
        f"MESSAGES = {MESSAGES!r}\n"
        "frames = [encode(k, s, f, t).hex() for k, s, f, t in MESSAGES]\n"
        "d = Decoder()\n"
        "back = d.feed(b'junk\\x00' + b''.join(bytes.fromhex(x) for x in frames))\n"
        "back = [[m[0], m[1], list(m[2]), m[3]] for m in back]\n"
        "print(json.dumps({'crc': crc16(b'123456789'), 'frames': frames, 'back': back, 'errors': d.errors}))\n"
    )
    out = _run_micropython(tmp_path, ROOT / "firmware_bridge" / "protocol.py", script)
    assert out["crc"] == 0x29B1
    assert out["frames"] == [p.encode(k, s, f, t).hex() for k, s, f, t in MESSAGES]
    assert [(k, s, tuple(f), t) for k, s, f, t in out["back"]] == MESSAGES
    assert sum(out["errors"].values()) == 1  # the junk


def _run_micropython(tmp_path: Path, *sources: Path, prelude: str = "") -> dict:
    if not _node_ready():
        pytest.fail(
            f"Node.js and MicroPython's WebAssembly package in {MICROPYTHON} are needed: make test installs them"
        )
    local = tmp_path / "run.mjs"
    local.write_text((ROOT / "tests" / "micropython" / "run.mjs").read_text())
    if not (tmp_path / "node_modules").exists():
        os.symlink(MICROPYTHON / "node_modules", tmp_path / "node_modules")
    first = tmp_path / "prelude.py"
    first.write_text(prelude)
    result = subprocess.run(
        ["node", str(local), str(first), *map(str, sources)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_firmware_answers_and_queues_edges_under_micropython(tmp_path: Path) -> None:
    """The Pico's main.py, run by MicroPython with stand-ins for machine, rp2 and select; its
    interrupts run with the heap locked, as a hard interrupt must run without allocating."""
    prelude = (
        f"PROTOCOL_SOURCE = {(ROOT / 'firmware_bridge' / 'protocol.py').read_text()!r}\n"
        f"FIRMWARE_SOURCE = {(ROOT / 'firmware_bridge' / 'firmware' / 'main.py').read_text()!r}\n"
    )
    out = _run_micropython(tmp_path, ROOT / "tests" / "micropython" / "firmware_harness.py", prelude=prelude)

    def said(step: str) -> list[tuple]:
        decoder = p.Decoder()
        messages = decoder.feed(b"".join(bytes.fromhex(f) for f in out["steps"][step]))
        assert not decoder.errors
        return [(m[0], m[2], m[3]) for m in messages]

    hello = said("hello")
    assert hello[0] == (p.VERSION, (p.PROTOCOL_VERSION, 30, 8, 8), "cardtable-pico 2.0")
    assert hello[1][0] == p.HEARTBEAT and hello[1][1][2:] == (0, 0b100)  # no edge yet; button 2 held at the start
    assert said("let go") == [(p.EDGE, (2, 0, said("let go")[0][1][2], 0), "")]  # its release, edge 0
    assert [m[0] for m in said("old host")] == [p.VERSION, p.ERROR, p.HEARTBEAT]
    assert said("old host")[1][1] == (p.E_VERSION,)
    kind, (ping_id, arrived, left), _ = said("ping")[0]
    assert (kind, ping_id) == (p.PONG, 7) and left >= arrived
    assert said("light") == [(p.ACK, (4,), "")] and out["lights"] == [p.FLASH, 255, 0, 0, 3, 400]
    assert said("bad light") == [(p.ERROR, (p.E_BAD_LIGHT,), "no light 99")]
    assert said("bad period")[0][:2] == (p.ERROR, (p.E_BAD_LIGHT,))  # a zero period would divide by zero
    assert said("unknown")[0][:2] == (p.ERROR, (p.E_UNKNOWN,))
    edges = said("press")
    assert [(m[1][0], m[1][1], m[1][3]) for m in edges] == [(1, 1, 1), (1, 0, 2)]  # numbered after the release of 2
    bounced = said("bouncing release")
    assert [(m[1][0], m[1][1], m[1][3]) for m in bounced] == [(3, 1, 3), (3, 0, 4)]  # the pin up: no press after it
    assert said("resend") == []  # the loop sends them
    again = [(1, 1, 1), (1, 0, 2), (3, 1, 3), (3, 0, 4)]
    together = said("together")
    assert [(m[1][0], m[1][1], m[1][3]) for m in together] == [*again, (4, 1, 5), (5, 1, 6)]
    assert together[4][1][2] == together[5][1][2]  # caught by one interrupt: one time, an exact tie
    assert out["dropped after resend"] == 0 and out["pressed while resending"]
    assert said("heartbeat")[0][1][2:] == (7, 0b110000)  # the next edge's number, buttons 4 and 5 down
    # The strip written through the PIO: GRB in the top 24 bits, the flashing light red.
    assert out["machines"] == [[0, 8_000_000]] and out["strip"][1] == 255 << 16 and out["strip"][0] == 0
    # 80 changes of a pin: the queue holds 63 unsent; each change it could not take is counted (the
    # pin coming back to the level queued last is no change), and the host hears of them.
    assert out["dropped"] == 9
    assert said("resend gone")[0] == (p.ERROR, (p.E_GONE,), "edges 0-6")  # 70 queued: the latest 63 held
    assert out["allocations"] == [] and out["control"]  # no interrupt allocated; one that does is seen
    # A failure in the loop is said in a frame short enough to send, and the board resets.
    assert said("crash")[0][:2] == (p.ERROR, (0,)) and said("crash")[0][2].startswith("firmware stopped: ")
    assert out["resets"] == 1
    levels = out["levels"]
    assert levels["steady"] == [255, 128, 0] and levels["flash on"] == [255, 0, 0]
    assert levels["flash off"] == levels["flash done"] == levels["blink off"] == [0, 0, 0]
    assert levels["pulse peak"][1] > 190 and levels["pulse low"][1] < 30
