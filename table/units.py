"""Time on the table is integer nanoseconds on the host's monotonic clock; these are its units."""

from __future__ import annotations

US = 1_000  # a microsecond, in nanoseconds
MS = 1_000 * US
SECOND = 1_000 * MS
