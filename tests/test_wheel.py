"""The app installed from its wheel, not from the checkout: the wheel carries every part.

The wheel is built with pip, installed (not editable) into a fresh virtual environment
and started from an empty folder, far from the checkout: its pages, static files,
translations and PDFs must all come from the installed package.  pip fetches the build
backend and the app's dependencies from the package registry (or its cache), so these
tests are marked `network`: deselect them with `-m "not network"` where there is none.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
import venv
import zipfile
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import scorekeeper
from helpers import free_port

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = ROOT / "scorekeeper" / "translations"
network = pytest.mark.network


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without the app's settings or this virtual environment."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("SCOREKEEPER_") and k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    # Built by this environment's hatchling (the "test" extra), not one pip would first
    # install into a build environment of its own each time.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "--disable-pip-version-check", "-w", str(dist), str(ROOT)],
                   check=True, timeout=300, env=clean_env())
    (found,) = dist.glob("*.whl")
    return found


#: What this environment holds of the app itself (its editable install), which a fresh
#: environment must not see.
APP_ITSELF = ("scorekeeper", "mexican_train_scorekeeper", "_editable_impl_mexican_train",
              "__editable__")


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel installed (not editable); answers its
    prefix.  The app's dependencies are this environment's, seen through a folder of links
    to them (the app's own editable install left out) named in a .pth file: pip still
    checks that the wheel's requirements are met and installs any that is missing, without
    copying some 300 MB of libraries again for each run."""
    prefix = tmp_path_factory.mktemp("venv")
    # Without a pip of its own (bootstrapping one takes longer than the install): this
    # environment's pip installs into it (--python), and compiles only what the app imports.
    venv.create(prefix, with_pip=False)
    deps = tmp_path_factory.mktemp("deps")
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.startswith(APP_ITSELF):
            (deps / entry.name).symlink_to(entry)
    site = subprocess.run([str(prefix / "bin" / "python"), "-c",
                           "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True, env=clean_env())
    (Path(site.stdout.strip()) / "dependencies.pth").write_text(f"{deps}\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(prefix / "bin" / "python"),
                    "install", "-q", "--no-compile", "--disable-pip-version-check", str(wheel)],
                   check=True, timeout=300, env=clean_env())
    return prefix


@network
def test_the_wheel_carries_every_part_of_the_app(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    package = {p.relative_to(ROOT).as_posix() for p in (ROOT / "scorekeeper").rglob("*.py")}
    assert {"scorekeeper/api/__init__.py", "scorekeeper/views/__init__.py"} <= package
    assert package <= names
    for folder in ("templates", "static"):
        shipped = {f"scorekeeper/{p.relative_to(ROOT).as_posix()}"
                   for p in (ROOT / folder).rglob("*") if p.is_file()}
        assert shipped and shipped <= names
    languages = sorted(p.name for p in CATALOGUES.iterdir() if p.is_dir())
    assert languages == ["el", "ms", "th", "vi", "zh"]
    for lang in languages:
        assert f"scorekeeper/translations/{lang}/LC_MESSAGES/messages.mo" in names


@network
def test_the_installed_app_serves_pages_static_files_and_pdfs(installed, tmp_path):
    """Started from an empty folder with SCOREKEEPER_INSTANCE: pages, the stylesheet,
    a Vietnamese page, a game's round page and both kinds of scoresheet."""
    cwd = tmp_path / "empty"
    cwd.mkdir()
    instance = tmp_path / "instance"
    port = free_port()
    server = subprocess.Popen(
        [str(installed / "bin" / "scorekeeper"), "--host", "127.0.0.1", "--port", str(port)],
        cwd=cwd, env=clean_env(SCOREKEEPER_INSTANCE=str(instance)),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/healthz", server)
        status, _type, home = get(base + "/")
        assert status == 200 and "Is this move legal?" in home

        vietnamese = translation("vi", "Is this move legal?")
        assert vietnamese != "Is this move legal?"
        assert vietnamese in unescape(get(base + "/?lang=vi")[2])

        status, ctype, css = get(base + "/static/app.css")
        assert status == 200 and ctype.startswith("text/css")
        assert css == (ROOT / "static" / "app.css").read_text()

        request = urllib.request.Request(
            base + "/api/games", method="POST", headers={"Content-Type": "application/json"},
            data=json.dumps({"name": "Wheel night", "players": ["Ann", "Bob", "Chi"]}).encode())
        with urllib.request.urlopen(request, timeout=30) as r:
            game_id = json.load(r)["id"]
        status, _type, round_page = get(f"{base}/games/{game_id}/rounds/1")
        assert status == 200 and "Wheel night" in round_page

        for path in (f"/games/{game_id}/scoresheet.pdf", "/scoresheets/blank.pdf?count=4"):
            status, ctype, body = get(base + path, binary=True)
            assert (status, ctype) == (200, "application/pdf")
            assert body.startswith(b"%PDF-")
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert list(cwd.iterdir()) == []   # nothing written where it was started
    assert {"scorekeeper.db", "secret_key"} <= {p.name for p in instance.iterdir()}
    assert "Traceback" not in output


@network
def test_the_installed_app_keeps_its_instance_under_the_environment_prefix(installed, tmp_path):
    """Without SCOREKEEPER_INSTANCE, Flask's place for an installed package:
    <prefix>/var/scorekeeper-instance, not beside the code in site-packages."""
    code = "import scorekeeper as s; print(s.INSTALLED, s.__file__, s.configured_app().instance_path)"
    found = subprocess.run(
        [str(installed / "bin" / "python"), "-c", code],
        cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=60, check=True)
    is_installed, module, instance = found.stdout.split()
    assert is_installed == "True" and "site-packages" in Path(module).parts
    path = Path(instance)
    assert path.resolve() == (installed / "var" / "scorekeeper-instance").resolve()
    assert "site-packages" not in path.parts
    assert path.is_dir()


def test_a_checkout_keeps_its_instance_in_the_repository(monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_INSTANCE", raising=False)
    assert not scorekeeper.INSTALLED
    assert scorekeeper.instance_path() == str(ROOT / "instance")
    app = scorekeeper.configured_app()
    assert (app.template_folder, app.static_folder) == (str(ROOT / "templates"),
                                                        str(ROOT / "static"))


def test_scorekeeper_instance_names_the_instance_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "elsewhere"))
    app = scorekeeper.create_app({"TESTING": True})
    assert app.instance_path == str(tmp_path / "elsewhere")
    assert app.config["DATABASE"] == str(tmp_path / "elsewhere" / "scorekeeper.db")
    assert (tmp_path / "elsewhere" / "secret_key").is_file()


def test_a_relative_scorekeeper_instance_is_taken_from_the_current_folder(monkeypatch,
                                                                          tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", "data")
    assert scorekeeper.configured_app().instance_path == str(tmp_path / "data")


# --- helpers -------------------------------------------------------------------------

def wait_for(url: str, server: subprocess.Popen, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail("the installed app stopped:\n" + server.communicate()[0])
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    pytest.fail(f"the installed app did not answer {url} in {seconds} s")


def get(url: str, binary: bool = False):
    """(status, content type, body) of a GET."""
    with urllib.request.urlopen(url, timeout=60) as r:
        body = r.read()
        return r.status, r.headers.get("Content-Type", ""), body if binary else body.decode()


def translation(lang: str, message: str) -> str:
    with open(CATALOGUES / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f).get(message).string
