"""The lab's renders of tiles pressed together (photolab.render's *touching*): what teaches
the segmenter that the dark seam between two tiles is an edge, not a divider."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from photolab.render import draw_tile, render_scene, sample_style, seams_as_edges
from scorekeeper.photo.classes import BG, DIVIDER, EDGE, FACE


def _halves(tile):
    """The middles of a placed tile's two halves."""
    c = tile.corners
    return (c[0] + c[3]) / 2 * 0.5 + c.mean(0) * 0.5, (c[1] + c[2]) / 2 * 0.5 + c.mean(0) * 0.5


def _seams(scene, mode):
    """For each two tiles pressed together, side by side (in a row) or end to end (in a
    chain; rows may be pressed together a little apart), the label map on the way from a
    half of one to the nearest half of the other."""
    out = []
    for i, p in enumerate(scene.tiles):
        w = float(np.linalg.norm(p.corners[3] - p.corners[0]))
        for q in scene.tiles[i + 1:]:
            d = float(np.linalg.norm(p.corners.mean(0) - q.corners.mean(0)))
            if not (0.97 * w <= d <= 1.03 * w or mode == "chain" and 1.97 * w <= d <= 2.03 * w):
                continue
            a, b = min(((a, b) for a in _halves(p) for b in _halves(q)),
                       key=lambda ab: np.linalg.norm(ab[0] - ab[1]))
            xs, ys = np.round(a + (b - a) * np.linspace(0.1, 0.9, 60)[:, None]).T.astype(int)
            out.append(scene.mask[ys, xs])
    return out


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(["rows", "chain"]))
def test_tiles_pressed_together_meet_at_an_edge_never_a_divider(seed, mode):
    scene = render_scene(np.random.default_rng(seed), 320, 320, n_tiles=4, tile_w=30.0,
                         mode=mode, touching=True, allow_partial=False, jpeg=False)
    seams = _seams(scene, mode)
    if mode == "rows":
        assert seams            # a row of four holds two tiles side by side at least
    assume(seams)               # a chain may turn or leave the picture after one tile
    for seam in seams:
        assert not (seam == BG).any()          # no gap between them
        assert (seam == EDGE).any()            # the seam is an edge
        assert not (seam == DIVIDER).any()     # never a divider


def test_a_tile_with_a_rim_is_darker_at_its_edge_and_labelled_edge_there():
    style = sample_style(np.random.default_rng(3), "train")
    plain = draw_tile(np.random.default_rng(8), style, 3, 5, 60, 2.5)
    rimmed = draw_tile(np.random.default_rng(8), style, 3, 5, 60, 2.5, rim=0.8)
    (rgb0, _, lab0, face), (rgb1, _, lab1, _) = plain, rimmed
    np.testing.assert_array_equal(lab0, lab1)             # the same labels
    edge = (lab1 == EDGE) & (face > 0)
    middle = lab1 == FACE
    assert rgb1[edge].mean() < 0.75 * rgb0[edge].mean()   # the rim in shade
    assert rgb1[middle].mean() == pytest.approx(rgb0[middle].mean(), rel=0.02)


@pytest.mark.parametrize("gap, seam", [(1, EDGE), (2, EDGE), (3, BG), (4, BG)])
def test_a_seam_two_pixels_wide_at_most_is_an_edge_a_wider_gap_the_table(gap, seam):
    mask = np.zeros((20, 30), np.uint8)
    mask[4:16, 3:12] = FACE
    mask[4:16, 12 + gap:24] = FACE
    seams_as_edges(mask)
    assert (mask[4:16, 12:12 + gap] == seam).all()
    assert (mask[:3] == BG).all() and (mask[:, :2] == BG).all()   # the table stays the table
