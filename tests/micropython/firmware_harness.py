# Runs firmware_bridge/firmware/main.py under MicroPython with stand-ins for the Pico's modules,
# feeds it messages and interrupts, and prints what it sent (hex frames) as JSON.
# PROTOCOL_SOURCE and FIRMWARE_SOURCE are defined before this file by the test.
import json
import sys

import micropython as real_micropython  # the firmware gets a stand-in; its heap lock is the real one


class Pin:
    IN = 0
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8
    pins = {}

    def __init__(self, number, mode=None, pull=None):
        self.number = number
        self.level = 0 if number == HELD_AT_START else 1  # pulled up: released
        self.handler = None
        Pin.pins[number] = self

    def irq(self, handler=None, trigger=None, hard=False):
        if handler is not None:
            self.handler = handler
        return self  # the pin's irq object: flags() says which edge fired

    def flags(self):
        return Pin.IRQ_FALLING | Pin.IRQ_RISING  # the rp2 port may report both edges in one interrupt

    def value(self):
        return self.level


HELD_AT_START = 4  # the third button's pin is held down as the board starts
PIN_NUMBERS = (2, 3, 4, 5, 6, 7, 8, 9)  # the firmware's BUTTON_PINS


class StateMachine:
    """The PIO state machine the strip is written through: what it was given."""

    made = []

    def __init__(self, index, program, freq=0, sideset_base=None):
        self.words = []
        StateMachine.made.append((index, freq))

    def active(self, on):
        pass

    def put(self, words, shift=0):
        self.words = list(words)


def _asm_pio(**options):
    return lambda program: program  # the assembler itself runs on the board only


class _PIO:
    OUT_LOW = 0
    SHIFT_LEFT = 0


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


class Mem32:
    """The SIO's input register, as the firmware reads it: bit n is pin n's level."""

    def __getitem__(self, address):
        word = 0
        for k in range(len(PIN_NUMBERS)):  # no iterator: the interrupt runs with the heap locked
            number = PIN_NUMBERS[k]
            word |= Pin.pins[number].level << number
        return word


class machine:
    Pin = Pin
    mem32 = Mem32()


class rp2:
    asm_pio = _asm_pio
    StateMachine = StateMachine
    PIO = _PIO


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


class Clock:
    """The board's timers, a microsecond on at each reading: two readings are never alike."""

    now_us = 1_000_000

    @staticmethod
    def ticks_us():
        Clock.now_us += 1
        return Clock.now_us

    @staticmethod
    def ticks_ms():
        return Clock.now_us // 1000

    @staticmethod
    def ticks_diff(a, b):
        return a - b

    @staticmethod
    def ticks_add(a, b):
        return a + b

    @staticmethod
    def sleep_ms(ms):
        Clock.now_us += ms * 1000


sys.modules["time"] = Clock
sys.modules["machine"] = machine
sys.modules["rp2"] = rp2
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


allocations = []


def irq(pin):
    """The pin's interrupt, run as a hard interrupt must run: with the heap locked, so that any
    allocation in the handler fails (MemoryError) and is noted."""
    real_micropython.heap_lock()
    try:
        pin.handler(pin)
        allocated = False
    except MemoryError:
        allocated = True
    real_micropython.heap_unlock()
    if allocated:
        allocations.append(pin.number)


wire = Wire()
fw["out"] = wire
p = protocol
steps = {}


def step(name, action):
    wire.sent = []
    action()
    steps[name] = wire.sent


step("hello", lambda: fw["handle"](p.HELLO, 1, (p.PROTOCOL_VERSION,)))


def let_go():
    pin = Pin.pins[HELD_AT_START]
    pin.level = 1
    irq(pin)
    fw["send_edges"]()


step("let go", let_go)
step("old host", lambda: fw["handle"](p.HELLO, 2, (9,)))
step("ping", lambda: fw["handle"](p.PING, 3, (7,)))
step("light", lambda: fw["handle"](p.LIGHT, 4, (1, p.FLASH, 255, 0, 0, 3, 400)))
step("bad light", lambda: fw["handle"](p.LIGHT, 5, (99, p.STEADY, 1, 2, 3, 0, 500)))
step("bad period", lambda: fw["handle"](p.LIGHT, 5, (1, p.BLINK, 1, 2, 3, 0, 0)))
step("unknown", lambda: fw["handle"](p.ACK, 6, (1,)))


def press():
    pin = Pin.pins[3]  # the second button
    pin.level = 0
    irq(pin)
    pin.level = 1
    irq(pin)
    fw["send_edges"]()


step("press", press)


def bouncing_release():
    """A press, then a release whose contact bounces: the pin goes up, down and up again before
    the one interrupt that reports both edges runs. Only what the pin shows is sent."""
    pin = Pin.pins[5]
    pin.level = 0
    irq(pin)
    pin.level = 1  # up, down, up: one interrupt, both flags, the pin up
    irq(pin)
    irq(pin)  # the flag of the bounce, arriving late: the pin is still up
    fw["send_edges"]()


step("bouncing release", bouncing_release)
step("resend", lambda: fw["handle"](p.RESEND, 7, (1,)))  # sent by the loop's next send_edges


def together():
    """Two buttons down before the interrupt runs, while edges asked for again wait to be sent:
    the first handler stamps both alike, the second finds nothing new, and the edges waiting to
    be sent again take no room from them."""
    for number in (6, 7):
        Pin.pins[number].level = 0
    irq(Pin.pins[7])
    irq(Pin.pins[6])
    fw["send_edges"]()


step("together", together)
dropped_after_resend = fw["dropped"]
step("heartbeat", lambda: fw["heartbeat"]())
step("show", lambda: fw["show"](1000))
strip = fw["strip"].words


def flood():
    pin = Pin.pins[2]
    for k in range(80):
        pin.level = k % 2
        irq(pin)


step("flood", flood)
step("resend gone", lambda: (fw["handle"](p.RESEND, 8, (0,)), fw["send_edges"]()))
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
fw["send_edges"]()
before = fw["dropped"]
fw["resend"]((fw["head"] - 63) & 0xFFFF)  # every edge it holds asked for again, none sent yet
last = Pin.pins[9]
last.level = 0
irq(last)  # a press meanwhile: room for it all the same
pressed_while_resending = fw["dropped"] == before and fw["levels"][7] == 1
result = {"steps": steps, "levels": levels, "dropped": fw["dropped"], "lights": list(fw["lights"][1][:6])}
result["strip"] = strip
result["allocations"] = list(allocations)
result["dropped after resend"] = dropped_after_resend
result["pressed while resending"] = pressed_while_resending
resets = []


def crash():
    raise MemoryError("memory allocation failed, allocating 1024 bytes for the strip's buffer")


machine.reset = lambda: resets.append(1)
fw["main"] = crash
step("crash", lambda: fw["run"]())
result["resets"] = len(resets)
result["steps"]["crash"] = steps["crash"]
control = Pin(99)
control.handler = lambda pin: bytearray(4)  # a handler that allocates: the check must see it
irq(control)
result["control"] = allocations[-1:] == [99]
result["machines"] = StateMachine.made
print(json.dumps(result))
