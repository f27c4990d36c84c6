"""Draws ``wiring.svg``, the seats' buttons and lights on the Pi's pins, from the pins
``table.example.toml`` gives: ``python docs/images/draw_wiring.py`` (from the repository root).
``tests/test_docs.py`` checks that the picture in the repository is the one the file gives."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "wiring.svg"
# The 40-pin header's physical pin of each BCM GPIO number the example may use, and its grounds.
PHYSICAL = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33, 19: 35, 26: 37}
PHYSICAL |= {14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32, 16: 36, 20: 38, 21: 40}
GROUND = 39
BUTTON, LED, WIRE, INK = "#2b6cb0", "#c53030", "#4a5568", "#1a202c"


def _text(x: float, y: float, text: str, size: int = 13, anchor: str = "start", weight: str = "normal") -> str:
    return (
        f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="{size}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{INK}">{text}</text>'
    )


def _line(points: list[tuple[float, float]], colour: str, width: float = 2) -> str:
    path = " ".join(f"{x},{y}" for x, y in points)
    return f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{width}"/>'


def wiring_svg(example: str) -> str:
    """The picture, for the seats, buttons and lights the configuration text gives."""
    seats = tomllib.loads(example)["seats"]
    names, buttons, lights = seats["names"], seats["buttons"], seats.get("lights", [])
    row, top = 110, 95
    height = top + row * len(names) + 60
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="760" height="{height}" viewBox="0 0 760 {height}">',
        f'<rect width="760" height="{height}" fill="white"/>',
        _text(20, 30, "Seat buttons and lights on the Raspberry Pi (table.example.toml)", 16, weight="bold"),
        f'<rect x="20" y="{top - 20}" width="150" height="{row * len(names) + 20}" rx="8" fill="#f0fff4" '
        f'stroke="{INK}"/>',
        _text(95, top - 28, "Raspberry Pi", 14, "middle", "bold"),
    ]
    ground_x = 300
    out.append(_line([(ground_x, top - 10), (ground_x, top + row * len(names) - 10)], INK, 3))
    out.append(_text(ground_x, top + row * len(names) + 10, f"GND (pin {GROUND}, or any ground)", 12, "middle"))
    for seat, name in enumerate(names):
        y = top + seat * row
        pin = buttons[seat]
        out.append(_text(30, y + 14, f"GPIO{pin} (pin {PHYSICAL.get(pin, '?')})", 12))
        out += [_line([(170, y + 10), (420, y + 10)], BUTTON), _line([(420, y + 10), (440, y - 2)], BUTTON)]
        out += [_line([(448, y + 10), (470, y + 10), (470, y + 40), (ground_x, y + 40)], BUTTON)]
        out.append(f'<circle cx="{ground_x}" cy="{y + 40}" r="4" fill="{INK}"/>')
        out.append(_text(430, y - 8, "button", 11, "middle"))
        if seat < len(lights):
            light = lights[seat]
            out.append(_text(30, y + 64, f"GPIO{light} (pin {PHYSICAL.get(light, '?')})", 12))
            out += [_line([(170, y + 60), (330, y + 60)], LED)]
            resistor = f'x="330" y="{y + 52}" width="50" height="16" fill="white" stroke="{LED}" stroke-width="2"'
            out.append(f"<rect {resistor}/>")
            out.append(_text(355, y + 86, "330 Ω", 11, "middle"))
            out += [_line([(380, y + 60), (520, y + 60)], LED)]
            out.append(f'<polygon points="520,{y + 50} 520,{y + 70} 540,{y + 60}" fill="{LED}"/>')
            out.append(_line([(540, y + 50), (540, y + 70)], LED, 3))
            out.append(_text(530, y + 86, "LED (long leg left)", 11, "middle"))
            out += [_line([(540, y + 60), (560, y + 60), (560, y + 95), (ground_x, y + 95)], LED)]
            out.append(f'<circle cx="{ground_x}" cy="{y + 95}" r="4" fill="{INK}"/>')
        out.append(_text(600, y + 40, f"seat {seat}: {name}", 14, weight="bold"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    OUT.write_text(wiring_svg((ROOT / "table.example.toml").read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {OUT}")
