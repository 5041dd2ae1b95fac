"""The lab's self-training of the segmenter (photolab.selftrain): the teacher's
probabilities, the crops that keep a photo and its target together, the light it is seen
under, and the shipped model carried into torch unchanged."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from photolab.selftrain import crop, relit, teach
from scorekeeper.photo import segment
from scorekeeper.photo.classes import CLASSES


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), h=st.integers(40, 90), w=st.integers(40, 90))
def test_a_crop_keeps_each_pixel_with_its_target(seed, h, w):
    """Whatever the crop, quarter turn and mirror, each pixel keeps its own target: the
    target here is the pixel's place, and the image encodes the same place."""
    ys, xs = np.mgrid[0:h, 0:w]
    image = np.stack([ys, xs, ys + xs], -1).astype(np.uint8)
    target = np.stack([ys, xs], -1).astype(np.float16)
    im, t = crop(image, target, 32, np.random.default_rng(seed))
    assert im.shape == (32, 32, 3) and t.shape == (32, 32, 2)
    assert im.flags.c_contiguous and t.flags.c_contiguous
    assert np.array_equal(im[..., 0], t[..., 0].astype(np.uint8))
    assert np.array_equal(im[..., 1], t[..., 1].astype(np.uint8))
    # a square of the photo, not scattered pixels
    assert np.ptp(t[..., 0]) == 31 and np.ptp(t[..., 1]) == 31


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_relit_is_the_same_picture_under_other_light(seed):
    """Same size and type; darker things stay darker (a tone curve, a cast, blur, noise
    and JPEG never swap a pip and its face)."""
    rng = np.random.default_rng(seed)
    image = np.full((48, 48, 3), 225, np.uint8)
    image[16:32, 16:32] = 25                      # a dark pip on a light face
    out = relit(image, rng)
    assert out.shape == image.shape and out.dtype == np.uint8
    assert out[20:28, 20:28].mean() + 60 < out[:8].mean()


def test_relit_changes_the_light():
    """Not the picture as it was: over a few draws the face's brightness and its colour
    balance move (a tone curve, a brighter or dimmer light, a cast)."""
    image = np.full((48, 48, 3), 200, np.uint8)
    faces = np.array([relit(image, np.random.default_rng(s))[:8].reshape(-1, 3).mean(0)
                      for s in range(12)])
    assert faces.mean(1).std() > 8                          # brighter and dimmer
    assert (faces.max(1) - faces.min(1)).max() > 15         # a cast between the channels


def test_the_teachers_target_is_the_shipped_segmenters_probabilities():
    """teach() gives what the reader's segmenter gives: its classes where most likely, and
    a probability for each class summing to one."""
    rng = np.random.default_rng(3)
    image = rng.integers(0, 255, (70, 90, 3), dtype=np.uint8)
    p = teach(image)
    assert p.shape == (70, 90, len(CLASSES)) and p.dtype == np.float16
    assert np.allclose(p.astype(np.float32).sum(-1), 1, atol=0.01)
    classes, _ = segment.segment(image[None])
    agree = (p.astype(np.float32).argmax(-1) == classes[0]).mean()
    assert agree > 0.99                            # ties in float16 aside


def test_the_shipped_segmenter_carried_into_torch_gives_the_same_logits():
    """from_onnx() rebuilds the shipped model in torch (its norms folded away) so that a
    student starts exactly where the shipped segmenter is."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from photolab.selftrain import from_onnx, frozen
    net = from_onnx(segment.MODEL).eval()
    x = np.random.default_rng(0).integers(0, 255, (1, 3, 64, 96)).astype(np.float32)
    ours = net(torch.from_numpy(x)).detach().numpy()
    theirs = segment.net().run(None, {"image": x})[0]
    assert np.abs(ours - theirs).max() < 1e-3
    frozen(net)
    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert norms and not any(m.training for m in norms) and net.training
