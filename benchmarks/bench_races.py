"""Slap races on the path a live table runs (``sim.races``): the first presser must take the pile.

1,000 races a row: a double lands, two to four seats slap it 1 µs to 50 ms apart, each press a
bouncing switch read by the table's own button reader on gpiozero's mock pins (``gpio``) or by
the fake board over a pseudo-terminal and the bridge driver (``bridge``), each seat's edges
reaching the loop 0.05-15 ms late in any order between seats; the camera models at 15, 30 and
60 frames a second, read by the table's tracker; everything into ``TableCore``. Targets:
first_won 1,000 of 1,000 in every row, no press dropped; a slap's verdict waiting under 50 ms at
the 99th percentile at 60 frames a second. The rows with a slapping hand over the pile are the
harder case beyond the targets: at 15 frames a second a fast slapper's hand can hide the
double before the camera has read it twice.

The last row stamps the bridge's edges as the firmware's interrupt does: MicroPython's hard
interrupt runs some 20-25 µs after an edge and stamps every button that changed by then with one
time, so presses closer than that are an exact tie, settled by the rules' ``tie`` (``tied``).

``--json`` prints one JSON object a row (``path``, ``camera``, ``races``, ``first_won``,
``wrong_winner``, ``no_winner``, ``press_dropped``, ``verdict_wait_ms_median``,
``verdict_wait_ms_p99``, ``tied``). The bridge rows take about seven minutes: the fake board runs
at the host's pace.
"""

from __future__ import annotations

import dataclasses
import json

from sim.races import CAMERAS, HANDS, race_rows


def main(count: int = 1000, as_json: bool = False) -> None:
    rows = race_rows(count, cameras=CAMERAS + HANDS)
    if as_json:
        for row in rows:
            print(json.dumps(dataclasses.asdict(row)))
        return
    print(f"Slap races on the live path, {count} a row (the verdict's wait: from the first press to the pile given):")
    for row in rows:
        tied = f", an exact tie {row.tied}" if row.tied else ""
        print(
            f"  {row.path}, {row.camera}: first won {row.first_won:,} of {row.races:,}{tied}; wrong winner "
            f"{row.wrong_winner}, no winner {row.no_winner}, races with a press dropped {row.press_dropped}; "
            f"verdict waits {row.verdict_wait_ms_median:.1f} ms median, {row.verdict_wait_ms_p99:.1f} ms p99"
        )


if __name__ == "__main__":
    main()
