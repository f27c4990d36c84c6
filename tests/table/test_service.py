"""The table as a systemd service: the shipped unit passes ``systemd-analyze verify`` without a
word, and ``cardtable run`` tells a notify socket READY=1, pings the watchdog, and says STOPPING=1."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from sim.mock_gpio import MOCK_PINS_ENV
from table.notify import Notifier
from tests.live_tables import ROOT, rendered_table

pytestmark = pytest.mark.system

UNIT = ROOT / "systemd" / "cardtable.service"


def test_the_shipped_unit_verifies_without_a_warning(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze is missing: apt-get install -y systemd (make test does)")
    cardtable = Path(sys.executable).with_name("cardtable")  # where the install script puts it: /opt/cardtable/venv
    text = UNIT.read_text(encoding="utf-8").replace("/opt/cardtable/venv/bin/cardtable", str(cardtable))
    assert text.count(str(cardtable)) == 1
    unit = tmp_path / "cardtable.service"
    unit.write_text(text, encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")  # any word is a warning
    for needed in ("Type=notify", "WatchdogSec=", "Restart=on-failure", "StateDirectory=cardtable", "User=cardtable"):
        assert needed in text
    for device in ("char-gpiochip", "char-video4linux", "char-ttyACM", "char-alsa"):
        assert f"DeviceAllow={device} rw" in text
    assert "SupplementaryGroups=gpio video dialout audio" in text  # the groups that own those devices


def test_the_shipped_unit_s_exposure_is_at_most_2_5() -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze is missing: apt-get install -y systemd (make test does)")
    done = subprocess.run(
        [analyze, "security", "--offline=yes", "--no-pager", str(UNIT)], capture_output=True, text=True, timeout=60
    )
    found = re.search(r"Overall exposure level for cardtable\.service: ([0-9.]+)", done.stdout)
    assert found is not None, done.stdout + done.stderr
    assert float(found.group(1)) <= 2.5, done.stdout


def test_cardtable_run_says_ready_pings_the_watchdog_while_its_loop_goes_round_and_says_stopping(
    tmp_path: Path,
) -> None:
    config = rendered_table(tmp_path, frames=30, card_from=999)
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(30)
        env = {
            **os.environ,
            **MOCK_PINS_ENV,
            "NOTIFY_SOCKET": str(path),
            "WATCHDOG_USEC": "600000",
        }
        command = [sys.executable, "-m", "table.cli", "run", "--config", str(config), "--quiet", "--max-seconds", "4"]
        table = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        said: list[str] = []
        try:
            while not said or said[-1] != "STOPPING=1":
                said.append(sock.recv(4096).decode())
        finally:
            table.wait(timeout=30)
    assert said[0].startswith("STATUS=game 1: ers (standard), journal ")
    (ready,) = [n for n, line in enumerate(said) if line.startswith("READY=1")]
    # Said once the networks have loaded and the camera opened (pings may come before it).
    assert ready >= 1 and said[ready].startswith("READY=1\nSTATUS=playing ers (standard), journal ")
    assert said[ready].endswith(" open") and "; camera " in said[ready]
    pings = said.count("WATCHDOG=1")
    assert 4 <= pings <= 20, said  # every 0.3 s for 4 s of play (the loop wakes for them), not every turn of it
    assert said[-1] == "STOPPING=1" and table.returncode == 0


def test_the_watchdog_is_pinged_at_half_its_time_and_only_for_its_own_process() -> None:
    sent: list[tuple[str, ...]] = []
    notifier = Notifier({"NOTIFY_SOCKET": "@cardtable-test", "WATCHDOG_USEC": "1000000"})
    notifier.send = lambda *fields: sent.append(fields)  # type: ignore[method-assign]
    for now in (0, 100, 499_999_999, 500_000_000, 700_000_000, 1_000_000_000):
        notifier.ping(now)
    assert sent == [("WATCHDOG=1",)] * 3 and notifier.next_ping() == 1_500_000_000
    assert notifier.address == "\0cardtable-test"
    assert Notifier({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"}).watchdog_ns is None
    assert not Notifier({}).active and Notifier({}).next_ping() is None


def test_the_install_script_parses_and_its_dry_run_names_every_step_and_no_password() -> None:
    script = ROOT / "systemd" / "install.sh"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True, timeout=30).returncode == 0
    done = subprocess.run(["bash", str(script), "--dry-run"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    steps = done.stdout
    for step in (
        "apt-get install -y python3-venv python3-picamera2 python3-lgpio mosquitto",
        "usermod -a -G gpio,video,dialout,audio cardtable",
        "python3 -m venv --system-site-packages /opt/cardtable/venv",
        "chmod -R u=rwX,g=rX,o= /opt/cardtable/src",  # not the whole clone readable by all
        "chmod -R o+rX /opt/cardtable/src/dashboard",  # but the page Mosquitto serves
        "cp " + str(ROOT / "systemd/mosquitto/cardtable.acl") + " /etc/mosquitto/cardtable.acl",
        "a new password for table, hashed into /etc/mosquitto/cardtable.passwd",
        "a new password for admin, hashed into /etc/mosquitto/cardtable.passwd",
        "cp " + str(UNIT) + " /etc/systemd/system/cardtable.service",
        "systemctl enable cardtable.service",
    ):
        assert f"+ {step}" in steps, step
    assert "mosquitto_passwd -b" not in script.read_text()  # no password on a command line, where ps shows it
