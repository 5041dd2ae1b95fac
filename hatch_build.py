"""The wheel's build hook: compile the translation catalogues into the wheel.

The .po files are kept in git and the .mo files the app reads are not (scripts/venv.sh
compiles them in place for a checkout).  A wheel must carry them, so they are compiled
here, into a folder of the build's own, and added to the wheel beside their .po files;
nothing is written into the source tree.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

CATALOGUES = Path("scorekeeper") / "translations"


class CompileTranslations(BuildHookInterface):
    PLUGIN_NAME = "compile-translations"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable":
            return   # an editable install reads the catalogues compiled in the checkout
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        self._compiled = Path(tempfile.mkdtemp(prefix="scorekeeper-mo-"))
        for po in sorted((Path(self.root) / CATALOGUES).glob("*/LC_MESSAGES/messages.po")):
            where = po.relative_to(self.root).with_suffix(".mo")
            with po.open("rb") as f:
                catalog = read_po(f, locale=po.parent.parent.name)
            if catalog.fuzzy:   # as `pybabel compile` does: a draft catalogue is left out
                continue
            mo = self._compiled / where
            mo.parent.mkdir(parents=True, exist_ok=True)
            with mo.open("wb") as f:
                write_mo(f, catalog)
            build_data["force_include"][str(mo)] = where.as_posix()

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        compiled = getattr(self, "_compiled", None)
        if compiled is not None:
            shutil.rmtree(compiled, ignore_errors=True)
