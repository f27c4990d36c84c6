"""A real headless Chromium (Debian's ``chromium``) driven over the DevTools protocol: open a
page, evaluate JavaScript in it, take a screenshot."""

from __future__ import annotations

import base64
import itertools
import json
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest


class Headless:
    def __init__(self, url: str, folder: Path, size: tuple[int, int] = (1280, 720)) -> None:
        import websocket

        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            pytest.fail("chromium is not installed: apt-get install -y chromium (make test does)")
        profile = folder / "chromium-profile"
        (profile / "DevToolsActivePort").unlink(missing_ok=True)  # a stale one names a port nobody listens on
        self.process = subprocess.Popen(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--remote-debugging-port=0",
                f"--user-data-dir={profile}",
                f"--window-size={size[0]},{size[1]}",
                url,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            assert time.monotonic() < deadline and self.process.poll() is None, "chromium did not start"
            time.sleep(0.05)
        port = port_file.read_text().split()[0]
        while True:
            pages = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5).read())
            pages = [p for p in pages if p.get("type") == "page"]
            if pages:
                break
            assert time.monotonic() < deadline, "chromium opened no page"
            time.sleep(0.05)
        # No Origin header: Chromium refuses DevTools connections from web origins it was not told of.
        self.socket = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=10, suppress_origin=True)
        self._ids = itertools.count(1)
        # The page's own size, exactly (the window's includes what the browser keeps for itself,
        # and a window is never narrower than the browser allows); upright is a phone's.
        width, height = size
        self.call(
            "Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=height > width
        )

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        sent = next(self._ids)
        self.socket.send(json.dumps({"id": sent, "method": method, "params": params}))
        while True:
            answer = json.loads(self.socket.recv())
            if answer.get("id") == sent:
                assert "error" not in answer, answer
                return answer["result"]

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def wait_for(self, expression: str, seconds: float = 20.0) -> Any:
        """The expression's value once it is truthy (an error meanwhile, e.g. the page still
        loading, counts as not yet)."""
        guarded = f"(() => {{ try {{ return ({expression}); }} catch (e) {{ return null; }} }})()"
        deadline = time.monotonic() + seconds
        while not (value := self.evaluate(guarded)):
            assert time.monotonic() < deadline, f"never true in the page: {expression}"
            time.sleep(0.1)
        return value

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))

    def close(self) -> None:
        try:
            self.socket.close()
        finally:
            self.process.kill()
            self.process.wait(timeout=10)
