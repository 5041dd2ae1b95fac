"""Reading a hand of dominoes from a photo (issue 17): a pure package, with no Flask or storage.

- :mod:`.decode`: a photo's bytes to pixels, refusing what is no photo (:class:`PhotoError`);
- :mod:`.reader`: :func:`read_hand`, the tiles a photo shows, sure or unsure;
- :mod:`.checks`: :func:`problems`, the reading checked against the set and the round (R3.3);
- the lab (rendering, training, measuring) is beside the app, in photolab/, never shipped.

Import the modules themselves (``from scorekeeper.photo.reader import read_hand``): this
file imports nothing, so that checking a reading does not load OpenCV or the model.
"""
