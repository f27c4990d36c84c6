# cardtable button-and-light board: MicroPython for the Raspberry Pi Pico (RP2040).
#
# Buttons: one per seat, between a GPIO pin and ground (internal pull-up). Every edge is stamped
# in a hard interrupt with time.ticks_us() and queued; the main loop sends it at once.
# Lights: a WS2812 (NeoPixel) strip, LEDS_PER_SEAT pixels per seat, driven by the host's LIGHT
# commands. The wire protocol is protocol.py, the same file the host runs.
# Flash: see the README ("The microcontroller bridge").

import select
import sys
import time
from array import array

import machine
import micropython
import neopixel
import protocol as p
from machine import Pin

FIRMWARE = "cardtable-pico 1.0"
BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8, 9)
NEOPIXEL_PIN = 16
LEDS_PER_SEAT = 1
TIMER_BITS = 30  # ticks_us wraps at 2**30 on the RP2040 port
SLOTS = 64  # edges waiting to be sent

micropython.alloc_emergency_exception_buf(100)
micropython.kbd_intr(-1)  # the USB serial line carries binary frames, not Ctrl-C

ticks = array("L", [0] * SLOTS)
info = bytearray(SLOTS)  # button << 1 | state
head = 0
tail = 0
dropped = 0


def make_handler(index):
    def handler(pin):  # hard interrupt: no allocation, no floats
        global head, dropped
        t = time.ticks_us()
        nxt = (head + 1) % SLOTS
        if nxt == tail:
            dropped += 1
            return
        ticks[head] = t
        # Which edge fired, not the pin's level now: it may have bounced back already.
        info[head] = (index << 1) | (1 if pin.irq().flags() & Pin.IRQ_FALLING else 0)  # pulled up: falling is a press
        head = nxt

    return handler


buttons = []
for i, number in enumerate(BUTTON_PINS):
    pin = Pin(number, Pin.IN, Pin.PULL_UP)
    pin.irq(make_handler(i), Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)
    buttons.append(pin)

strip = neopixel.NeoPixel(Pin(NEOPIXEL_PIN), len(BUTTON_PINS) * LEDS_PER_SEAT)
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


def handle(kind, msg_seq, fields):
    if kind == p.HELLO:
        send(p.VERSION, (p.PROTOCOL_VERSION, TIMER_BITS, len(BUTTON_PINS), len(BUTTON_PINS)), FIRMWARE)
        if fields[0] != p.PROTOCOL_VERSION:
            send(p.ERROR, (p.E_VERSION,), f"host speaks protocol {fields[0]}")
    elif kind == p.PING:
        send(p.PONG, (fields[0], time.ticks_us()))
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
    """Send every edge the interrupt has queued, oldest first."""
    global tail
    while tail != head:
        send(p.EDGE, (info[tail] >> 1, info[tail] & 1, ticks[tail]))
        tail = (tail + 1) % SLOTS


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
            send(p.HEARTBEAT, (time.ticks_us(), dropped & 0xFFFF))
            next_beat = time.ticks_add(now, 500)
        if time.ticks_diff(now, next_frame) >= 0:
            for i, light in enumerate(lights):
                colour = level(light, now) if light else (0, 0, 0)
                for k in range(LEDS_PER_SEAT):
                    strip[i * LEDS_PER_SEAT + k] = colour
            strip.write()
            next_frame = time.ticks_add(now, 20)


def run():
    """The loop, restarted clean if anything in it fails: a table never wants a board at its REPL."""
    try:
        main()
    except Exception as exc:
        send(p.ERROR, (0,), f"firmware stopped: {exc}")
        time.sleep_ms(100)
        machine.reset()


if __name__ == "__main__":  # as main.py on the board; a test imports it under another name
    run()
