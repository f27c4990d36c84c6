"""The wire protocol between the table and its button-and-light board, for both ends.

This one file runs on the host (CPython) and on the board (MicroPython): no typing module, no
dataclasses, only ``struct``. The firmware folder holds a copy that a test keeps identical.

A frame is a zero byte, ``COBS(type, seq, body..., crc_hi, crc_lo)``, and a zero byte. COBS
removes every zero from the frame, so a zero always ends one, and the zero before each frame
ends whatever garbage came before it: after line noise or a torn frame the decoder loses only
the frame the noise hit, never the next one. The CRC (CRC-16/CCITT-FALSE) catches corrupted
bytes; the sequence number (0-255, per sender) lets the other side acknowledge a light command
and notice a lost message.

Button edges carry a number of their own (0-65535, counting every edge the board has queued):
the host notices a gap, asks for the edges again from the first missing one (RESEND), and
reports those the board no longer holds (ERROR ``E_GONE``), so no edge goes missing silently.
The heartbeat says the next edge's number and which buttons are down: a last edge lost, and a
button held as the board starts, show there.

Messages (body layouts are little-endian ``struct`` formats):

========= ====== ============ =================================================================
type      value  direction    body
========= ====== ============ =================================================================
HELLO     0x01   host→board   protocol version
VERSION   0x02   board→host   protocol, timer bits, buttons, lights; firmware name (text)
EDGE      0x03   board→host   button, state (1 pressed), board timer in µs at the edge, edge number
LIGHT     0x04   host→board   light, pattern, red, green, blue, count, period in ms
ACK       0x05   either       the sequence number acknowledged
PING      0x06   host→board   ping id
PONG      0x07   board→host   ping id, board timer in µs when the ping arrived, and as the pong leaves
ERROR     0x08   board→host   error code; text
HEARTBEAT 0x09   board→host   board timer in µs, edges dropped since start, next edge number,
                              buttons down (bit n: button n)
RESEND    0x0A   host→board   the edge number to send the edges again from
========= ====== ============ =================================================================
"""

import struct

PROTOCOL_VERSION = 2
MAX_FRAME = 64  # bytes of a decoded frame; anything longer is garbage

HELLO = 0x01
VERSION = 0x02
EDGE = 0x03
LIGHT = 0x04
ACK = 0x05
PING = 0x06
PONG = 0x07
ERROR = 0x08
HEARTBEAT = 0x09
RESEND = 0x0A

# Fixed part of each body; VERSION and ERROR carry UTF-8 text after it.
FORMATS = {
    HELLO: "<B",
    VERSION: "<BBBB",
    EDGE: "<BBIH",
    LIGHT: "<BBBBBBH",
    ACK: "<B",
    PING: "<H",
    PONG: "<HII",
    ERROR: "<B",
    HEARTBEAT: "<IHHH",
    RESEND: "<H",
}
WITH_TEXT = (VERSION, ERROR)
NAMES = {
    HELLO: "hello",
    VERSION: "version",
    EDGE: "edge",
    LIGHT: "light",
    ACK: "ack",
    PING: "ping",
    PONG: "pong",
    ERROR: "error",
    HEARTBEAT: "heartbeat",
    RESEND: "resend",
}

# Light patterns (LIGHT's pattern byte).
OFF = 0
STEADY = 1
BLINK = 2  # on and off every period
PULSE = 3  # a slow breathing fade over period
FLASH = 4  # count flashes, then off

# Error codes (ERROR's code byte).
E_VERSION = 1  # the host speaks a protocol version the board does not
E_UNKNOWN = 2  # a message type the board does not know
E_BAD_LIGHT = 3  # a light number the board does not have
E_OVERFLOW = 4  # edges came faster than the link could take them
E_GONE = 5  # edges asked for again that the board no longer holds; the text says which


class ProtocolError(ValueError):
    """A frame or message that cannot be decoded. ``reason`` is a short key (``crc``, ``cobs``,
    ``short``, ``type``, ``size``, ``text``, ``long``) for counting; the message says more."""

    def __init__(self, reason, detail=""):
        super().__init__(reason + ": " + detail if detail else reason)
        self.reason = reason


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (polynomial 0x1021): check value 0x29B1 for b"123456789"."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the same bytes with no zero among them."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data):
    """The bytes ``cobs_encode`` was given; ProtocolError if ``data`` is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError("cobs", "zero byte inside a frame")
        end = i + code
        if end > n + 1 or (end == n + 1 and code != 1):
            raise ProtocolError("cobs", "block runs past the end of the frame")
        for j in range(i + 1, min(end, n)):
            if data[j] == 0:
                raise ProtocolError("cobs", "zero byte inside a frame")
        out.extend(data[i + 1 : min(end, n)])
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


def encode(kind, seq, fields=(), text=""):
    """One framed message, ready to write (a zero before and after it): fields as in FORMATS,
    text for VERSION and ERROR."""
    if kind not in FORMATS:
        raise ProtocolError("type", f"unknown message type {kind}")
    body = struct.pack(FORMATS[kind], *fields)
    if text:
        if kind not in WITH_TEXT:
            raise ProtocolError("text", f"{NAMES[kind]} carries no text")
        body += text.encode()
    frame = bytes([kind, seq & 0xFF]) + body
    crc = crc16(frame)
    frame += bytes([crc >> 8, crc & 0xFF])
    if len(frame) > MAX_FRAME:
        raise ProtocolError("long", f"message of {len(frame)} bytes is longer than {MAX_FRAME}")
    return b"\x00" + cobs_encode(frame) + b"\x00"


def decode(frame):
    """(kind, seq, fields, text) from one frame without its zero; ProtocolError if it is bad."""
    raw = cobs_decode(frame)
    if len(raw) < 4:
        raise ProtocolError("short", f"frame of {len(raw)} bytes is too short")
    if crc16(raw[:-2]) != (raw[-2] << 8 | raw[-1]):
        raise ProtocolError("crc", "checksum does not match")
    kind, seq, body = raw[0], raw[1], raw[2:-2]
    fmt = FORMATS.get(kind)
    if fmt is None:
        raise ProtocolError("type", f"unknown message type {kind}")
    size = struct.calcsize(fmt)
    if len(body) < size or (len(body) > size and kind not in WITH_TEXT):
        raise ProtocolError("size", f"{NAMES[kind]} body of {len(body)} bytes, expected {size}")
    fields = struct.unpack(fmt, body[:size])
    text = ""
    if kind in WITH_TEXT:
        try:
            text = bytes(body[size:]).decode()
        except UnicodeError:
            raise ProtocolError("text", f"{NAMES[kind]} text is not UTF-8") from None
    return kind, seq, fields, text


class Decoder:
    """Turns a byte stream into messages; bad frames are dropped and counted, never raised.

    ``errors`` counts each reason a frame was dropped, so the host can log a noisy cable.
    """

    def __init__(self):
        self.buffer = bytearray()
        self.errors = {}
        self.skipping = False  # inside an overlong run: drop bytes up to the next zero

    def _drop(self, why):
        self.errors[why] = self.errors.get(why, 0) + 1

    def feed(self, data):
        """Messages completed by ``data``, as (kind, seq, fields, text) tuples, in order."""
        out = []
        for byte in data:
            if byte != 0:
                if self.skipping:
                    continue
                self.buffer.append(byte)
                if len(self.buffer) > MAX_FRAME + MAX_FRAME // 254 + 2:
                    self._drop("long")
                    self.buffer = bytearray()
                    self.skipping = True
                continue
            if self.skipping:
                self.skipping = False
                continue
            if not self.buffer:
                continue  # back-to-back zeros: an idle line or a host flushing the board's decoder
            frame = bytes(self.buffer)
            self.buffer = bytearray()
            try:
                out.append(decode(frame))
            except ProtocolError as exc:
                self._drop(exc.reason)
        return out
