"""The running-totals chart: an inline SVG, drawn on the server (no CDN, no script)."""

from __future__ import annotations

from typing import Mapping, Sequence

from markupsafe import Markup, escape

def running_totals(players: Sequence[str],
                   rounds: Sequence[Mapping[str, int] | None]) -> dict[str, list[int]]:
    """Each player's total after each recorded round, starting from 0."""
    totals = {p: [0] for p in players}
    for scores in rounds:
        if scores is None:
            continue
        for p in players:
            totals[p].append(totals[p][-1] + scores[p])
    return totals


def axis_scale(top_value: int) -> tuple[int, int]:
    """A tick step of 1, 2 or 5 × 10^k giving four to six ticks, and the axis top it reaches.

    221 → (50, 250); 68 → (20, 80); anything up to 10 → (2, 10).
    """
    top_value = max(top_value, 10)
    step = 1
    while top_value / step > 5:
        for factor in (2, 2.5, 2):
            step = int(step * factor)
            if top_value / step <= 5:
                break
    top = max(-(-top_value // step) * step, 2 * step)
    return step, top


def totals_chart(players: Sequence[str], rounds: Sequence[Mapping[str, int] | None],
                 labels: Sequence[str], title: str, colours: Mapping[str, str]) -> Markup:
    """A line per player, in their train colour, of the running total after each round
    (x: round labels)."""
    totals = running_totals(players, rounds)
    steps = len(next(iter(totals.values()))) - 1 if totals else 0
    # Drawn at about the size it is shown (a phone's width), so its labels stay readable.
    width, height, left, right, top, bottom = 480, 300, 46, 12, 14, 32
    step, nice, floor, y = _value_axis([v for vs in totals.values() for v in vs], top,
                                       height - top - bottom)
    span_x = max(steps, 1)

    def x(i: int) -> float:
        return left + (width - left - right) * i / span_x

    out = _frame(title, width, height, left, right, nice, step, y, floor)
    every = 1 if steps <= 12 else 2  # 19 round labels would touch each other
    for i in range(0, steps + 1, every):
        label = "0" if i == 0 else escape(labels[i - 1] if i - 1 < len(labels) else str(i))
        out.append(f'<text x="{x(i):.1f}" y="{height - 8}" text-anchor="middle" '
                   f'font-size="17" fill="#444">{label}</text>')
    for p in players:
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(totals[p]))
        colour = escape(colours[p])
        # A faint dark edge under each line, so a pale train colour (yellow, grey) still
        # shows on the white chart.
        out.append(f'<polyline points="{pts}" fill="none" stroke="#1d1d1b" '
                   f'stroke-opacity=".3" stroke-width="5" stroke-linejoin="round"/>')
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="3" '
                   f'stroke-linejoin="round"><title>{escape(p)}</title></polyline>')
        last = totals[p][-1]
        out.append(f'<circle cx="{x(len(totals[p]) - 1):.1f}" cy="{y(last):.1f}" r="4.5" '
                   f'fill="{colour}" stroke="#1d1d1b" stroke-width="1"/>')
    out.append("</svg>")
    return Markup("".join(out))


def _value_axis(values: Sequence[int], top: int, span: int):
    """The value axis of a chart: its tick step, top, floor (0, or below 0 by whole steps
    when house scoring (R11.1) took a value below 0) and the y of a value."""
    step, nice = axis_scale(max(list(values) + [0]))
    low = min(list(values) + [0])
    floor = (low // step) * step if low < 0 else 0

    def y(v: float) -> float:
        if floor:
            return top + span * (nice - v) / (nice - floor)
        return top + span * (1 - v / nice)

    return step, nice, floor, y


def _frame(title: str, width: int, height: int, left: int, right: int, nice: int, step: int,
           y, floor: int = 0) -> list[str]:
    """The opening of a chart's SVG: its title and the value grid with its labels, from
    *floor* (below 0 only under house scoring) up to *nice*."""
    out = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{escape(title)}" preserveAspectRatio="xMidYMid meet">',
           f"<title>{escape(title)}</title>"]
    for v in range(floor, nice + 1, step):
        label = f"\u2212{-v}" if v < 0 else v
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'stroke="#ddd"/><text x="{left - 6}" y="{y(v) + 6:.1f}" '
                   f'text-anchor="end" font-size="17" fill="#444">{label}</text>')
    return out


#: The colours of a game total on a player's chart: a win, any other place.
WIN_COLOUR, GAME_COLOUR = "#b8860b", "#1f77b4"


def game_totals_chart(games: Sequence[tuple[str, int, bool, str]], title: str) -> Markup:
    """One point per complete game, oldest first: (x label, total, won, point title).

    A line joins a player's game totals over time; wins are the larger gold points.
    At most the first and last labels and a few between are written, so they never touch.
    """
    width, height, left, right, top, bottom = 480, 300, 46, 16, 14, 32
    step, nice, floor, y = _value_axis([total for _l, total, _w, _t in games], top,
                                       height - top - bottom)
    span_x = max(len(games) - 1, 1)

    def x(i: int) -> float:
        if len(games) == 1:
            return (left + width - right) / 2
        return left + (width - left - right) * i / span_x

    out = _frame(title, width, height, left, right, nice, step, y, floor)
    every = max(1, -(-len(games) // 4))
    for i, (label, _total, _won, _title) in enumerate(games):
        if i % every == 0 or i == len(games) - 1:
            anchor = "start" if i == 0 and len(games) > 1 else (
                "end" if i == len(games) - 1 and len(games) > 1 else "middle")
            out.append(f'<text x="{x(i):.1f}" y="{height - 8}" text-anchor="{anchor}" '
                       f'font-size="15" fill="#444">{escape(label)}</text>')
    if len(games) > 1:
        pts = " ".join(f"{x(i):.1f},{y(g[1]):.1f}" for i, g in enumerate(games))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{GAME_COLOUR}" '
                   f'stroke-width="2.5" stroke-linejoin="round"/>')
    for i, (_label, total, won, point_title) in enumerate(games):
        colour, radius = (WIN_COLOUR, 7) if won else (GAME_COLOUR, 4.5)
        out.append(f'<circle cx="{x(i):.1f}" cy="{y(total):.1f}" r="{radius}" fill="{colour}">'
                   f'<title>{escape(point_title)}</title></circle>')
    out.append("</svg>")
    return Markup("".join(out))
