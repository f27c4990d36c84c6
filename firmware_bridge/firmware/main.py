# cardtable button-and-light board: MicroPython for the Raspberry Pi Pico (RP2040).
#
# Buttons: one per seat, between a GPIO pin and ground (internal pull-up). A pin's edge raises a
# hard interrupt, which takes time.ticks_us() once and reads every pin at once (the SIO's input
# register): each button whose level differs from its last queued edge is queued with that one
# time and its number. Buttons that changed before the same interrupt came are stamped alike (an
# exact tie, which the table settles by its rules), never in pin order. The main loop sends each
# edge at once, and again when the host asks (RESEND).
# Lights: a WS2812 (NeoPixel) strip, LEDS_PER_SEAT pixels per seat, driven by the host's LIGHT
# commands through the RP2040's PIO: the strip's bit timing is the PIO's, so interrupts are never
# turned off to write it and a button's edge is stamped when it happens, whatever the lights do.
# The wire protocol is protocol.py, the same file the host runs.
# Flash: see docs/hardware.md ("The microcontroller bridge").

import select
import sys
import time
from array import array

import machine
import micropython
import protocol as p
import rp2
from machine import Pin
from micropython import const

FIRMWARE = "cardtable-pico 2.0"
BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8, 9)
NEOPIXEL_PIN = 16
LEDS_PER_SEAT = 1
TIMER_BITS = 30  # ticks_us wraps at 2**30 on the RP2040 port
SLOTS = 64  # edges kept: waiting to be sent, then for the host to ask again
GPIO_IN = const(0xD0000004)  # the SIO's input register: every pin's level in one word (bits 0-29)
HEARTBEAT_MS = 10  # each heartbeat tells the host every edge before it is in: a slap waits no longer

micropython.alloc_emergency_exception_buf(100)
micropython.kbd_intr(-1)  # the USB serial line carries binary frames, not Ctrl-C

ticks = array("L", [0] * SLOTS)
info = bytearray(SLOTS)  # button << 1 | pressed
levels = bytearray(len(BUTTON_PINS))  # each button as its last queued edge left it: 1 pressed
masks = tuple(1 << number for number in BUTTON_PINS)
head = 0  # edges queued since the start (the next edge's number, before wrapping at 2**16)
tail = 0  # the next edge to send (moved back when the host asks for edges again)
sent = 0  # edges sent at least once: those after it may not be written over
dropped = 0


def changed(pin):  # hard interrupt: no allocation, no floats
    """Every button whose pin differs from its last queued edge, queued with one time. The pins'
    levels now, not which edge flag fired: one interrupt can report both (a contact bouncing
    back), and an edge is only news if the pin differs from the last one queued."""
    global head, dropped
    t = time.ticks_us()
    word = machine.mem32[GPIO_IN]  # bits 0-29: a small int, no allocation
    for i in range(len(masks)):
        down = 0 if word & masks[i] else 1  # pulled up: low is pressed
        if down == levels[i]:
            continue
        if head - sent >= SLOTS - 1:
            dropped += 1  # not recorded: its opposite edge will match and be left out too
            continue
        slot = head % SLOTS
        ticks[slot] = t
        info[slot] = (i << 1) | down
        levels[i] = down
        head += 1


buttons = []
for i, number in enumerate(BUTTON_PINS):
    pin = Pin(number, Pin.IN, Pin.PULL_UP)
    levels[i] = 1 - pin.value()  # held as the board starts: the host hears it in the first heartbeat
    pin.irq(changed, Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)
    buttons.append(pin)


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=24)
def ws2812():
    # 800 kHz WS2812 bits at 8 MHz: a one is high 7 cycles and low 3, a zero high 2 and low 8.
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]
    jmp(not_x, "do_zero").side(1)[1]
    jmp("bitloop").side(1)[4]
    label("do_zero")
    nop().side(0)[4]
    wrap()


strip = rp2.StateMachine(0, ws2812, freq=8_000_000, sideset_base=Pin(NEOPIXEL_PIN))
strip.active(1)
pixels = array("I", [0] * (len(BUTTON_PINS) * LEDS_PER_SEAT))  # GRB, shifted into the top 24 bits
lights = [None] * len(BUTTON_PINS)  # (pattern, r, g, b, count, period_ms, start_ms)

out = sys.stdout.buffer
poll = select.poll()
poll.register(sys.stdin, select.POLLIN)
decoder = p.Decoder()
seq = 0


def send(kind, fields=(), text=""):
    global seq
    seq = (seq + 1) & 0xFF
    out.write(p.encode(kind, seq, fields, text))


def level(light, now_ms):
    """Brightness 0-255 of a light's pattern at this moment."""
    pattern, r, g, b, count, period, start = light
    phase = time.ticks_diff(now_ms, start)
    if pattern == p.STEADY:
        k = 255
    elif pattern == p.BLINK:
        k = 255 if phase % period < period // 2 else 0
    elif pattern == p.FLASH:
        k = 255 if phase < count * period and phase % period < period // 2 else 0
    elif pattern == p.PULSE:
        x = phase % period
        k = x * 510 // period if x < period // 2 else (period - x) * 510 // period
    else:
        k = 0
    return (r * k // 255, g * k // 255, b * k // 255)


def heartbeat():
    """The board's time, edges dropped, the next edge's number and the buttons down as queued.
    Every edge stamped before the time it carries is sent before it: the host may take every
    button's edges as all in up to that time."""
    t = time.ticks_us()
    send_edges()
    nxt = head
    down = 0
    for i in range(len(levels)):
        down |= levels[i] << i
    send(p.HEARTBEAT, (t, dropped & 0xFFFF, nxt & 0xFFFF, down))


def resend(number):
    """Send the edges again from ``number`` on (the host saw a gap); say which are gone."""
    global tail
    first = head - ((head - number) & 0xFFFF)
    if 0 <= first < tail:  # a number the board never gave out is no edge to send again
        tail = first  # send_edges says which of them are gone by the time it gets to them


def handle(kind, msg_seq, fields):
    arrived = time.ticks_us()
    if kind == p.HELLO:
        send(p.VERSION, (p.PROTOCOL_VERSION, TIMER_BITS, len(BUTTON_PINS), len(BUTTON_PINS)), FIRMWARE)
        if fields[0] != p.PROTOCOL_VERSION:
            send(p.ERROR, (p.E_VERSION,), f"host speaks protocol {fields[0]}")
        heartbeat()  # the buttons already down
    elif kind == p.PING:
        send(p.PONG, (fields[0], arrived, time.ticks_us()))
    elif kind == p.RESEND:
        resend(fields[0])
    elif kind == p.LIGHT:
        light, pattern, period = fields[0], fields[1], fields[6]
        if light >= len(lights):
            send(p.ERROR, (p.E_BAD_LIGHT,), f"no light {light}")
            return
        if pattern > p.FLASH or period < 20:
            send(p.ERROR, (p.E_BAD_LIGHT,), f"bad pattern {pattern} or period {period} ms")
            return
        lights[light] = fields[1:] + (time.ticks_ms(),)  # noqa: RUF005 (MicroPython has no starred displays everywhere)
        send(p.ACK, (msg_seq,))
    else:
        send(p.ERROR, (p.E_UNKNOWN,), f"unexpected message type {kind}")


def send_edges():
    """Send every edge from ``tail`` on, oldest first, with its number; edges asked for again
    that newer ones have written over are said to be gone."""
    global tail, sent
    while tail < head:
        oldest = head - SLOTS + 1  # older slots may be written over by the next edge
        if tail < oldest:
            send(p.ERROR, (p.E_GONE,), f"edges {tail & 0xFFFF}-{(oldest - 1) & 0xFFFF}")
            tail = oldest
        slot = tail % SLOTS
        what, when = info[slot], ticks[slot]
        if tail < head - SLOTS + 1:  # written over while being read: gone
            continue
        send(p.EDGE, (what >> 1, what & 1, when, tail & 0xFFFF))
        tail += 1
        if tail > sent:
            sent = tail


def show(now_ms):
    """Every light's colour now, to the strip through the PIO (interrupts stay on)."""
    for i, light in enumerate(lights):
        r, g, b = level(light, now_ms) if light else (0, 0, 0)
        for k in range(LEDS_PER_SEAT):
            pixels[i * LEDS_PER_SEAT + k] = (g << 16 | r << 8 | b) << 8
    strip.put(pixels)


def main():
    next_beat = time.ticks_ms()
    next_frame = time.ticks_ms()
    while True:
        send_edges()  # edges first: they are what the referee is waiting for
        if poll.poll(1):
            data = sys.stdin.buffer.read(1)
            for kind, msg_seq, fields, _text in decoder.feed(data):
                handle(kind, msg_seq, fields)
        now = time.ticks_ms()
        if time.ticks_diff(now, next_beat) >= 0:
            heartbeat()
            next_beat = time.ticks_add(now, HEARTBEAT_MS)
        if time.ticks_diff(now, next_frame) >= 0:
            show(now)
            next_frame = time.ticks_add(now, 20)


def run():
    """The loop, restarted clean if anything in it fails: a table never wants a board at its REPL."""
    try:
        main()
    except Exception as exc:
        try:
            send(p.ERROR, (0,), "firmware stopped: " + str(exc)[:30])  # a frame holds 64 bytes
            time.sleep_ms(100)
        finally:
            machine.reset()


if __name__ == "__main__":  # as main.py on the board; a test imports it under another name
    run()
