"""Stand-ins for every piece of hardware, and bot players."""
