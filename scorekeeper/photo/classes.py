"""The segmenter's classes, in one place: every pixel of a photo is one of these.

The model (model.onnx) answers one logit per class in this order; the lab's renders
(photolab/render.py) label their masks with the same ids.
"""

#: The classes' names, in the model's order.
CLASSES = ("background", "face", "edge", "divider", "pip")
#: Their ids: background, a tile's face, a face's edge band, the divider, a pip.
BG, FACE, EDGE, DIVIDER, PIP = range(len(CLASSES))
