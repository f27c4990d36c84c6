"""Setting up on a Raspberry Pi: ``make`` keeps a venv that sees the system's picamera2 and lgpio
(or makes one, with ``PI=1``) and installs what picamera2 then needs; picamera2 that cannot be
loaded is one line saying what to do."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vision.frames import FrameSourceError, open_source

ROOT = Path(__file__).resolve().parents[1]


def _make_setup(folder: Path, *args: str) -> str:
    """What ``make setup`` would run (``make -n``) in a checkout like this one."""
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, folder / name)
    done = subprocess.run(["make", "-n", *args, "setup"], cwd=folder, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_keeps_a_venv_that_sees_the_system_packages_and_pi_1_makes_one(tmp_path: Path) -> None:
    plain = _make_setup(tmp_path)
    assert "-m venv  .venv" in plain and "'.[dev]'" in plain and "--system-site-packages" not in plain
    pi = _make_setup(tmp_path, "PI=1")
    assert "-m venv --system-site-packages .venv" in pi and "'.[dev,pi]'" in pi
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = true\n")
    kept = _make_setup(tmp_path)  # pyproject.toml changed since: the venv is set up again, as it was made
    assert "-m venv --system-site-packages .venv" in kept and "'.[dev,pi]'" in kept


def test_the_install_script_installs_what_picamera2_needs_in_its_venv() -> None:
    script = (ROOT / "systemd" / "install.sh").read_text()
    assert "venv --system-site-packages" in script and '"$PREFIX/src[pi]"' in script


def test_picamera2_built_for_another_numpy_is_one_line_saying_what_to_do(tmp_path: Path, monkeypatch) -> None:
    fake = tmp_path / "picamera2"
    fake.mkdir()
    (fake / "__init__.py").write_text(
        'raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. '
        'Expected 96 from C header, got 88 from PyObject")\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    with pytest.raises(FrameSourceError) as caught:
        open_source("picamera:0")
    says = str(caught.value)
    assert "\n" not in says and says.startswith("camera picamera:0: picamera2 cannot be loaded (numpy.dtype size")
    assert "pip install simplejpeg" in says
