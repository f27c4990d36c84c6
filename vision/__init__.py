"""Vision: camera frames to CardSeen / CardGone events (issue 4; not built yet)."""
