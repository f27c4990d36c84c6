"""The button-and-light board on USB serial: the wire protocol (``protocol``, shared with the
MicroPython firmware in ``firmware/``), the board's clock on the host's (``clock_sync``), and the
host driver (``host``)."""
