"""What the readers of one placements file share while they read it: the node reader, the folders,
the air date, and what has been read so far (sponsors, slots, film ids, the breaks' nodes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from broadcast.sponsors.placements.model import Slot, Sponsor
from broadcast.sponsors.placements.nodes import NodeReader
from engine.yamlread import Node


@dataclass
class Build:
    r: NodeReader
    base: Path  # the file's folder: asset paths are relative to it
    root: Path  # the served folder (/assets/sponsors/ = root)
    air_date: date | None
    sponsors: dict[str, Sponsor] = field(default_factory=dict)
    sponsor_nodes: dict[str, Node] = field(default_factory=dict)
    slots: list[Slot] = field(default_factory=list)
    film_nodes: dict[str, Node] = field(default_factory=dict)
    break_nodes: list[Node] = field(default_factory=list)

    def name_of(self, sponsor: str) -> str:
        """The sponsor's name for a message (its id when its entry has no usable name)."""
        sp = self.sponsors.get(sponsor)
        return sp.name if sp is not None else sponsor

    def incomplete(self) -> None:
        """A slot could not be built: every failure already produced an error; make sure of it."""
        if not self.r.has_errors():
            self.r.error(
                None,
                "排期不完整",
                "按错误提示补全",
                en=("the placements are incomplete", "complete them as the other messages say"),
            )
