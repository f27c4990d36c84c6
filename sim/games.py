"""Which simulation plays which game."""

from __future__ import annotations

from sim.cuckoo_sim import CuckooSimulation
from sim.eights_sim import EightsSimulation
from sim.ers_sim import ErsSimulation
from sim.ohhell_sim import OhHellSimulation
from sim.table_sim import TableSimulation

SIMULATIONS: dict[str, type[TableSimulation]] = {
    "ers": ErsSimulation,
    "cuckoo": CuckooSimulation,
    "oh-hell": OhHellSimulation,
    "eights": EightsSimulation,
}
