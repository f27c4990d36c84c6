"""systemd's notify protocol: READY=1 once the table is up, WATCHDOG=1 while its loop goes round,
STOPPING=1 on the way out, each a datagram to ``$NOTIFY_SOCKET``.

Without ``$NOTIFY_SOCKET`` (not run by systemd) nothing is sent. The watchdog is pinged at half
``$WATCHDOG_USEC``, from the table's loop itself: a loop stuck on anything stops the pings, and
systemd kills and restarts the table, which resumes its game from the journal.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger("cardtable")


class Notifier:
    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        where = env.get("NOTIFY_SOCKET", "")
        self.address = ("\0" + where[1:]) if where.startswith("@") else where  # "@": the abstract namespace
        self.watchdog_ns: int | None = None
        usec, pid = env.get("WATCHDOG_USEC", ""), env.get("WATCHDOG_PID", "")
        if usec.isdigit() and int(usec) > 0 and (not pid.isdigit() or int(pid) == os.getpid()):
            self.watchdog_ns = int(usec) * 1_000
        self._pinged: int | None = None
        self._failed = False

    @property
    def active(self) -> bool:
        return bool(self.address)

    def send(self, *fields: str) -> None:
        if not self.address:
            return
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto("\n".join(fields).encode(), self.address)
        except OSError as exc:  # systemd went away: nothing the table can do, and no reason to stop
            if not self._failed:
                log.warning("cannot tell systemd (%s): %s", self.address.lstrip("\0"), exc)
            self._failed = True

    def ready(self, status: str) -> None:
        self.send("READY=1", f"STATUS={status}")

    def status(self, status: str) -> None:
        self.send(f"STATUS={status}")

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def ping(self, now_ns: int) -> None:
        """The loop has gone round: ping the watchdog if half its time has passed since the last."""
        if self.watchdog_ns is None or (self._pinged is not None and now_ns - self._pinged < self.watchdog_ns // 2):
            return
        self._pinged = now_ns
        self.send("WATCHDOG=1")

    def next_ping(self) -> int | None:
        """When the loop must go round again at the latest to ping in time (None: no watchdog)."""
        if self.watchdog_ns is None or self._pinged is None:
            return None
        return self._pinged + self.watchdog_ns // 2
