"""The one base of every error the project raises for a person to read: a card that is no card,
a wrong configuration key, a journal line that cannot be read, a camera that will not open.
Each says in one line what was wrong; the command line catches this class alone and prints it."""

from __future__ import annotations


class CardtableError(Exception):
    """An error whose message is for the user: one line naming what was wrong."""
