"""Seat buttons and the serial bridge: ordering, clock sync, light acknowledgement.

Targets: presses on one clock domain ordered right whenever at least 1 µs apart, whatever order
and delay they arrive in; the bridge's clock within 100 µs of the truth at the 99th percentile
from two seconds after connecting, over an hour with 100 ppm of drift, symmetric and asymmetric
delays, the host's clock slewed by ±20 ppm and the timer's wrap, and its published bound never
missed; a light command acknowledged within 20 ms on a healthy link; a lost frame retried.
"""

from __future__ import annotations

import random
import statistics
import time

from table.units import MS


def bench_ordering() -> None:
    """Presses 1 µs apart on the GPIO mock and on the fake board, delivered shuffled."""
    from sim.mock_gpio import press, timed_mock_factory
    from table.buttons import GpioButtons

    rng = random.Random(1)
    factory = timed_mock_factory()
    buttons = GpioButtons({s: 4 + s for s in range(8)}, factory=factory)
    right = total = 0
    for trial in range(200):
        base = 1_000 + trial * 0.01
        seats = list(range(8))
        rng.shuffle(seats)  # the true order
        deliveries = list(enumerate(seats))
        rng.shuffle(deliveries)
        for k, seat in deliveries:
            press(factory, 4 + seat, base + k * 1e-6)
        for seat in range(8):
            factory.pin(4 + seat).edge(True, base + 0.005)
        edges = [e for e in buttons.drain() if e.pressed]
        got = [e.seat for e in sorted(edges, key=lambda e: e.t_ns)]
        right += got == seats
        total += 1
    buttons.close()
    print(f"  GPIO (mock pins), 8 presses 1 µs apart delivered shuffled: {right}/{total} rounds in the true order")

    from firmware_bridge.host import Bridge
    from sim.fake_board import BoardConfig, FakeBoard

    board = FakeBoard(BoardConfig(jitter_ns=1 * MS, drift_ppm=100)).start()
    bridge = Bridge(board.path).start()
    _wait(lambda: bridge.fit.ready)
    right = total = 0
    for _ in range(200):
        at = time.monotonic_ns()
        order = list(range(4))
        rng.shuffle(order)
        for k, button in enumerate(order):
            board.press(button, at + k * 1_000, delay_ns=rng.randrange(0, 20 * MS))
        for button in order:
            board.release(button, at + 60 * MS, delay_ns=rng.randrange(0, 20 * MS))
        _wait(lambda: bridge.edges.qsize() >= 8)
        presses = [e for e in bridge.drain() if e.pressed]
        got = [e.seat for e in sorted(presses, key=lambda e: e.t_ns)]
        right += got == order
        total += 1
    bridge.stop()
    board.stop()
    print(
        f"  bridge (fake board), 4 presses 1 µs apart, sent up to 20 ms late: {right}/{total} rounds in the true order"
    )


def bench_sync() -> None:
    """The fit over a simulated hour of each link (``sim.clock_link``), then against the fake board in real time."""
    from sim.clock_link import LINKS, run_link

    for link in LINKS:
        result = run_link(link, 3_600)
        bounds = sorted(result.bounds_us)
        print(
            f"  simulated hour, {link.name}: after 2 s median {result.median():4.0f} µs, "
            f"99th percentile {result.p99():4.0f} µs, worst {max(result.errors_us):4.0f} µs; "
            f"the bound {statistics.median(bounds):4.0f} µs median, missed {result.bound_misses} times "
            f"of {len(bounds):,}"
        )

    from firmware_bridge.host import Bridge
    from sim.fake_board import BoardConfig, FakeBoard

    config = BoardConfig(offset_us=(1 << 30) - 5_000_000, drift_ppm=100, jitter_ns=2 * MS, board_ns=(50_000, 500_000))
    board = FakeBoard(config).start()
    bridge = Bridge(board.path).start()
    _wait(lambda: bridge.fit.ready)
    time.sleep(6)
    errors, misses = [], 0
    for _ in range(60):
        at = time.monotonic_ns()
        board.press(0, at)
        _wait(lambda: not bridge.edges.empty())
        error = abs(bridge.drain()[0].t_ns - at)
        misses += error > (bridge.sync_bound_ns or 0)
        errors.append(error / 1000)
        board.release(0)
        _wait(lambda: not bridge.edges.empty())
        bridge.drain()
        time.sleep(0.05)
    bound = (bridge.sync_bound_ns or 0) / 1000
    bridge.stop()
    board.stop()
    errors.sort()
    print(
        f"  fake board over a pseudo-terminal (100 ppm, 0-2 ms jitter each way), after 6 s: median "
        f"{statistics.median(errors):4.0f} µs, worst {errors[-1]:4.0f} µs of {len(errors)} presses; "
        f"the bound {bound:.0f} µs, missed {misses} times"
    )


def bench_lights() -> None:
    from firmware_bridge.host import Bridge, BridgeTiming
    from sim.fake_board import BoardConfig, FakeBoard
    from table.lights import steady

    for title, config in (("healthy link", BoardConfig()), ("30% of frames lost", BoardConfig(drop_rate=0.3, seed=2))):
        board = FakeBoard(config).start()
        bridge = Bridge(board.path, timing=BridgeTiming(retries=20)).start()
        _wait(lambda b=bridge: b.status == "connected")
        for k in range(100):
            bridge.show(k % 4, steady((k, 0, 0)))
            time.sleep(0.02)
        _wait(lambda b=bridge: not b._pending, timeout=5)
        lat = sorted(bridge.ack_latencies_ns)
        bridge.stop()
        board.stop()
        print(
            f"  light command to acknowledgement, {title}: median {statistics.median(lat) / MS:.2f} ms, "
            f"99th percentile {lat[int(len(lat) * 0.99)] / MS:.2f} ms; {bridge.stats['light resends']} resent, "
            f"{bridge.stats['lights lost']} lost of 100"
        )


def _wait(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError("the bridge did not get there in time")
        time.sleep(0.002)


def main() -> None:
    print("Seat buttons and the serial bridge:")
    bench_ordering()
    bench_sync()
    bench_lights()


if __name__ == "__main__":
    main()
