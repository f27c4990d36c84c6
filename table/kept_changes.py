"""What a running table's commands and seats changed in its configuration (the game, the preset,
the names, the seed), kept in its journal folder (``changes.json``) so that a restart plays on
with them, under whatever its command line changes itself."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from table.config import ConfigError, TableConfig, merged_overrides
from table.games import GAMES

log = logging.getLogger("cardtable")

CHANGES_FILE = "changes.json"  # in the journal folder


class KeptChanges:
    """The changes of one table's journal folder, checked against what its seats can do."""

    def __init__(self, folder: Path, wired: int, exact_edges: bool) -> None:
        """``wired``: the seats with a button; ``exact_edges``: each button edge carries its own time."""
        self.folder, self.wired, self.exact_edges = folder, wired, exact_edges
        self.changes: dict[str, dict[str, Any]] = {}

    @property
    def path(self) -> Path:
        return self.folder / CHANGES_FILE

    def change(self, config: TableConfig, overrides: dict[str, dict[str, Any]]) -> TableConfig:
        """``config`` changed for the games to come, and the change kept; a ``ConfigError`` names
        what cannot be (more names than seats wired, a slap game on pins without edge times)."""
        names = overrides.get("seats", {}).get("names")
        if names is not None and len(names) > self.wired:
            raise ConfigError(f"names: {len(names)} given, but the table has {self.wired} seats wired")
        changed = config.changed(overrides)
        if GAMES[changed.game.name].timed_races and not self.exact_edges:
            raise ConfigError(f"{changed.game.name} needs each button edge's own time, and these pins do not give it")
        self.changes = merged_overrides(self.changes, overrides)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.path.with_suffix(".tmp").write_text(json.dumps(self.changes, indent=1), encoding="utf-8")
            os.replace(self.path.with_suffix(".tmp"), self.path)
        except OSError as exc:
            log.error("cannot keep the change in %s (%s): a restart forgets it", self.path, exc)
        return changed

    def kept(self, config: TableConfig, overrides: dict[str, dict[str, Any]]) -> TableConfig:
        """At start: ``config`` with the changes kept from an earlier run, under the command line's
        ``overrides``; as it is when there are none, or they cannot be read (said in the log)."""
        path = self.path
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return config
        except (OSError, ValueError) as exc:
            log.error("%s cannot be read (%s): the configuration is played as it is", path, exc)
            return config
        try:
            if not isinstance(kept, dict) or not all(isinstance(v, dict) for v in kept.values()):
                raise ConfigError(f"not the changes it should hold: {kept!r}")
            try:
                changed = config.changed(merged_overrides(kept, overrides))
            except ConfigError as exc:  # the command line's game, say, with a kept preset of another
                kept = {section: values for section, values in kept.items() if section not in overrides}
                changed = config.changed(merged_overrides(kept, overrides))
                log.warning("%s: %s; kept only the changes the command line does not touch", path, exc)
        except (ConfigError, TypeError, ValueError, AttributeError) as exc:
            log.error("%s: %s; the configuration is played as it is", path, exc)
            return config
        self.changes = kept
        return changed
