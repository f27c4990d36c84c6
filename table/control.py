"""The table's control socket: ``cardtable send`` talks to a running ``cardtable run`` through it.

A Unix socket in the journal folder (``control.sock``; only the table's user and group may use
it). A client sends one command as a JSON line and gets one JSON line back:
``{"ok": true, "message": "game 4 dealt: ..."}`` or ``{"ok": false, "message": "why not"}``.
The command goes through the table's one inbox like every other input, so it is taken between
two inputs, never in the middle of one.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import socket
import socketserver
import threading
from pathlib import Path
from typing import Any

from table.commands import CommandError, CommandRequest, parse_command
from table.errors import CardtableError

SOCKET_NAME = "control.sock"
REPLY_S = 5.0  # the loop answers within this (it takes one input at a time, each in milliseconds)
LINE_BYTES = 65_536  # a command longer than this is no command


class ControlError(CardtableError, RuntimeError):
    """The control socket cannot be used: no table runs there, or another one already does."""


def claim(path: Path) -> None:
    """Make sure no other table runs on ``path``'s folder (a ``ControlError`` says so); a socket
    left by a table that was killed (nobody listening) is removed."""
    if not (path.exists() or path.is_symlink()):
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(str(path))
        except (ConnectionRefusedError, FileNotFoundError):
            path.unlink(missing_ok=True)  # left by a table that was killed
            return
        except OSError:
            pass  # someone is there, busy: a table
    raise ControlError(f"another table is running on {path.parent}: stop it, or give this one its own journal folder")


class _Handler(socketserver.StreamRequestHandler):
    timeout = 2.0  # a client that connects and says nothing is let go

    def handle(self) -> None:
        server: ControlServer = self.server  # type: ignore[assignment]
        try:
            line = self.rfile.readline(LINE_BYTES)
            ok, message = server.answer(line)
        except (OSError, TimeoutError):
            return
        with contextlib.suppress(OSError):
            self.wfile.write(json.dumps({"ok": ok, "message": message}).encode() + b"\n")


class ControlServer(socketserver.UnixStreamServer):
    """Listens on ``path`` and hands each command to ``inbox`` as a ``CommandRequest``."""

    def __init__(self, path: Path, inbox: queue.SimpleQueue[Any]) -> None:
        self.path, self.inbox = path, inbox
        claim(path)
        old = os.umask(0o117)  # the table's user and group only
        try:
            super().__init__(str(path), _Handler)
        finally:
            os.umask(old)
        self._thread = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.2}, name="control", daemon=True
        )

    def start(self) -> ControlServer:
        self._thread.start()
        return self

    def answer(self, line: bytes) -> tuple[bool, str]:
        """The answer to one line: refused here if it is no command, else the loop's."""
        if not line.endswith(b"\n"):
            return False, f"a command is one JSON line of at most {LINE_BYTES} bytes"
        try:
            command = parse_command(json.loads(line))
        except (CommandError, ValueError) as exc:  # json's errors are ValueErrors
            return False, str(exc) if isinstance(exc, CommandError) else f"not JSON: {exc}"
        answers: queue.SimpleQueue[tuple[bool, str]] = queue.SimpleQueue()
        self.inbox.put(CommandRequest(command, lambda ok, message: answers.put((ok, message))))
        try:
            return answers.get(timeout=REPLY_S)
        except queue.Empty:
            return False, f"the table did not answer within {REPLY_S:g} s (it may still take the command); see its log"

    def stop(self) -> None:
        if self._thread.is_alive():
            self.shutdown()
        self.server_close()
        with contextlib.suppress(OSError):
            self.path.unlink()


def send_command(path: Path, command: dict[str, Any], timeout: float = REPLY_S + 2) -> tuple[bool, str]:
    """Send one command to the table listening on ``path``; its answer."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(str(path))
            sock.sendall(json.dumps(command).encode() + b"\n")
            reply = sock.makefile("rb").readline(LINE_BYTES)
    except FileNotFoundError:
        raise ControlError(f"no table is running on {path.parent} (no {path.name})") from None
    except ConnectionRefusedError:
        stale = f"{path.name} is left from one that stopped"
        raise ControlError(f"no table is running on {path.parent} ({stale})") from None
    except OSError as exc:
        raise ControlError(f"cannot talk to the table at {path}: {exc}") from None
    try:
        answer = json.loads(reply)
        return bool(answer["ok"]), str(answer["message"])
    except (ValueError, KeyError, TypeError):
        raise ControlError(f"the table at {path} answered {reply[:200]!r}, which is no answer") from None
