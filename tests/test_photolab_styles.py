"""The lab's renders of the sets sold for the game (photolab.styles.STANDARD): what the tile
classifier learns the numbers 10 to 18 from, since real photos seldom show them."""

import itertools
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from photolab.render import draw_tile
from photolab.styles import STANDARD, pip_layout, sample_style, standard_extras
from scorekeeper.photo.classes import PIP


def _spacing(points):
    return min(math.dist(p, q) for p, q in itertools.combinations(points, 2))


@pytest.mark.parametrize("n", range(19))
def test_the_standard_layout_draws_each_number_whole_and_symmetric(n):
    pts = pip_layout(n, STANDARD)
    assert len(pts) == n
    assert all(0 < x < 1 and 0 < y < 1 for x, y in pts)
    assert len({(round(x, 6), round(y, 6)) for x, y in pts}) == n
    # a real set's half looks the same turned a half turn
    turned = sorted((round(1 - x, 6), round(1 - y, 6)) for x, y in pts)
    assert turned == sorted((round(x, 6), round(y, 6)) for x, y in pts)


@pytest.mark.parametrize("n, middle", [(10, 2), (11, 3), (12, 4), (13, 3), (15, 5), (18, 6)])
def test_the_standard_layout_is_two_full_sides_and_the_rest_down_the_middle(n, middle):
    pts = pip_layout(n, STANDARD)
    rows = math.ceil(n / 3)
    assert sum(x == 0.5 for x, _ in pts) == middle
    assert sum(x < 0.5 for x, _ in pts) == rows == sum(x > 0.5 for x, _ in pts)
    ys = sorted(y for x, y in pts if x == 0.5)
    assert ys[0] == pytest.approx(0.5 / rows) and ys[-1] == pytest.approx(1 - 0.5 / rows)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), set_n=st.sampled_from([6, 9, 12, 15, 18]))
def test_one_pip_size_for_the_set_and_pips_never_touch(seed, set_n):
    extras = standard_extras(np.random.default_rng(seed), set_n)
    assert 0.02 <= extras["inner"] <= 0.08
    for n in range(2, set_n + 1):
        gap = _spacing(pip_layout(n, STANDARD)) * (1 - 2 * extras["inner"])
        assert 2 * extras["pip"] < gap, (n, extras)


def test_a_standard_tile_draws_its_pips_at_the_sets_size():
    rng = np.random.default_rng(4)
    style = replace(sample_style(rng, "train"), layout=STANDARD,
                    extras={"inner": 0.05, "pip": 0.1})
    _rgb, _alpha, label, _face = draw_tile(rng, style, 12, 2, 120, 2.0)
    pips = (label == PIP).astype(np.uint8)
    count, comp = cv2.connectedComponents(pips)
    inside = cv2.distanceTransform(pips, cv2.DIST_L2, 5)
    # every pip, of the 12 and of the 2, the set's size (a jittered pair may touch)
    for k in range(1, count):
        assert inside[comp == k].max() == pytest.approx(12, rel=0.2)
    assert pips.sum() == pytest.approx(14 * math.pi * 12 ** 2, rel=0.2)
