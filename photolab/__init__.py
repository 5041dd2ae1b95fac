"""The photo reader's lab, beside the app and never shipped with it: synthetic renders
(:mod:`.render`, :mod:`.styles`), training the segmenter (:mod:`.train`), renders written to
a folder for measuring (:mod:`.renders`).  The app reads photos with
``scorekeeper/photo/`` and its model alone; nothing here is imported at run time."""
