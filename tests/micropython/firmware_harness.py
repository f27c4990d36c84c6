# Runs firmware_bridge/firmware/main.py under MicroPython with stand-ins for the Pico's modules,
# feeds it messages and interrupts, and prints what it sent (hex frames) as JSON.
# PROTOCOL_SOURCE and FIRMWARE_SOURCE are defined before this file by the test.
import json
import sys


class Pin:
    IN = 0
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8
    pins = {}

    def __init__(self, number, mode=None, pull=None):
        self.number = number
        self.level = 1  # pulled up: released
        self.handler = None
        Pin.pins[number] = self

    def irq(self, handler=None, trigger=None, hard=False):
        if handler is not None:
            self.handler = handler
        return self  # the pin's irq object: flags() says which edge fired

    def flags(self):
        return Pin.IRQ_RISING if self.level else Pin.IRQ_FALLING

    def value(self):
        return 1 - self.level  # by the time the handler runs, the contact has bounced back


class NeoPixel:
    def __init__(self, pin, n):
        self.pixels = [(0, 0, 0)] * n

    def __setitem__(self, i, colour):
        self.pixels[i] = colour

    def write(self):
        pass


class Poll:
    def register(self, *args):
        pass

    def poll(self, timeout):
        return []


def _poll():
    return Poll()


def _nothing(*args):
    pass


def _const(value):
    return value


class machine:
    Pin = Pin


class neopixel:
    NeoPixel = NeoPixel


class micropython_stub:
    alloc_emergency_exception_buf = _nothing
    kbd_intr = _nothing
    const = _const


class select_stub:
    POLLIN = 1
    poll = _poll


protocol_globals = {"__name__": "protocol"}
exec(PROTOCOL_SOURCE, protocol_globals)


class protocol:
    pass


for _key, _value in protocol_globals.items():
    setattr(protocol, _key, _value)

sys.modules["machine"] = machine
sys.modules["neopixel"] = neopixel
sys.modules["micropython"] = micropython_stub
sys.modules["select"] = select_stub
sys.modules["protocol"] = protocol

fw = {"__name__": "firmware"}
exec(FIRMWARE_SOURCE, fw)


class Wire:
    def __init__(self):
        self.sent = []

    def write(self, data):
        self.sent.append(bytes(data).hex())


wire = Wire()
fw["out"] = wire
p = protocol
steps = {}


def step(name, action):
    wire.sent = []
    action()
    steps[name] = wire.sent


step("hello", lambda: fw["handle"](p.HELLO, 1, (p.PROTOCOL_VERSION,)))
step("old host", lambda: fw["handle"](p.HELLO, 2, (9,)))
step("ping", lambda: fw["handle"](p.PING, 3, (7,)))
step("light", lambda: fw["handle"](p.LIGHT, 4, (1, p.FLASH, 255, 0, 0, 3, 400)))
step("bad light", lambda: fw["handle"](p.LIGHT, 5, (99, p.STEADY, 1, 2, 3, 0, 500)))
step("bad period", lambda: fw["handle"](p.LIGHT, 5, (1, p.BLINK, 1, 2, 3, 0, 0)))
step("unknown", lambda: fw["handle"](p.ACK, 6, (1,)))


def press():
    pin = Pin.pins[3]  # the second button
    pin.level = 0
    pin.handler(pin)
    pin.level = 1
    pin.handler(pin)
    fw["send_edges"]()


step("press", press)


def flood():
    pin = Pin.pins[2]
    for k in range(80):
        pin.level = k % 2
        pin.handler(pin)


step("flood", flood)
level = fw["level"]
start = 1000
levels = {
    "steady": level((p.STEADY, 255, 128, 0, 0, 500, start), start + 123),
    "flash on": level((p.FLASH, 255, 0, 0, 3, 400, start), start + 100),
    "flash off": level((p.FLASH, 255, 0, 0, 3, 400, start), start + 300),
    "flash done": level((p.FLASH, 255, 0, 0, 3, 400, start), start + 1300),
    "blink off": level((p.BLINK, 0, 0, 255, 0, 400, start), start + 250),
    "pulse peak": level((p.PULSE, 0, 200, 0, 0, 1000, start), start + 500),
    "pulse low": level((p.PULSE, 0, 200, 0, 0, 1000, start), start + 20),
}
print(json.dumps({"steps": steps, "levels": levels, "dropped": fw["dropped"], "lights": list(fw["lights"][1][:6])}))
