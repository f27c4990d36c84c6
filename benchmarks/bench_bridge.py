"""Seat buttons and the serial bridge: ordering, clock sync, light acknowledgement.

Targets (issue 5): presses on one clock domain ordered right whenever at least 1 µs apart,
whatever order and delay they arrive in; bridge clock within 200 µs of the truth under 100 ppm
drift and 2 ms jitter after a few seconds of pings, across the timer's wrap; a light command
acknowledged within 20 ms on a healthy link; a lost frame retried.
"""

from __future__ import annotations

import random
import statistics
import time

MS = 1_000_000


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
        _wait(lambda: bridge.edges.qsize() >= 4)
        got = [e.seat for e in sorted(bridge.drain(), key=lambda e: e.t_ns)]
        right += got == order
        total += 1
    bridge.stop()
    board.stop()
    print(
        f"  bridge (fake board), 4 presses 1 µs apart, sent up to 20 ms late: {right}/{total} rounds in the true order"
    )


def bench_sync() -> None:
    """The fit against a simulated crystal (a minute, many seeds), then against the fake board in real time."""
    from firmware_bridge.clock_sync import ClockFit, Ping, Unwrapper

    after: dict[int, list[float]] = {3: [], 6: [], 10: [], 30: []}
    for seed in range(20):
        rng = random.Random(seed)
        drift = rng.choice([-100e-6, 100e-6])
        offset = (1 << 30) - rng.randrange(1_000_000, 30_000_000)  # the wrap somewhere in the minute
        unwrap, fit = Unwrapper(30), ClockFit()

        def raw(t: float, offset: int = offset, drift: float = drift) -> int:
            return int(offset + t / 1000 * (1 + drift)) % (1 << 30)

        t = start = 5_000 * MS
        while t < start + 60_000 * MS:
            arrive = t + 200_000 + rng.uniform(0, 2 * MS)
            back = arrive + 200_000 + rng.uniform(0, 2 * MS)
            fit.add(Ping(t, int(back), unwrap(raw(arrive))))
            t += 100 * MS
            press = t - rng.uniform(0, 90 * MS)
            error = abs(fit.to_host_ns(unwrap(raw(press))) - press) / 1000
            for s in after:
                if t - start >= s * 1_000 * MS:
                    after[s].append(error)
    for s, errors in after.items():
        errors.sort()
        print(
            f"  simulated crystal (±100 ppm, 0-2 ms jitter each way, wrap crossed), after {s:2d} s of pings: "
            f"median {statistics.median(errors):4.0f} µs, 99th percentile {errors[int(len(errors) * 0.99)]:4.0f} µs, "
            f"worst {errors[-1]:4.0f} µs"
        )

    from firmware_bridge.host import Bridge
    from sim.fake_board import BoardConfig, FakeBoard

    board = FakeBoard(BoardConfig(offset_us=(1 << 30) - 5_000_000, drift_ppm=100, jitter_ns=2 * MS, seed=4)).start()
    bridge = Bridge(board.path).start()
    _wait(lambda: bridge.fit.ready)
    time.sleep(6)
    errors = []
    for _ in range(60):
        at = time.monotonic_ns()
        board.press(0, at)
        _wait(lambda: not bridge.edges.empty())
        errors.append(abs(bridge.drain()[0].t_ns - at) / 1000)
        time.sleep(0.05)
    bridge.stop()
    board.stop()
    errors.sort()
    print(
        f"  fake board over a pseudo-terminal (100 ppm, 0-2 ms jitter each way), after 6 s: median "
        f"{statistics.median(errors):4.0f} µs, worst {errors[-1]:4.0f} µs of {len(errors)} presses"
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
