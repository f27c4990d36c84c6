"""The microcontroller bridge over USB serial (issue 5; not built yet)."""
