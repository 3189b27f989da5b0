"""Reading a placements file: bytes → YAML nodes → every section by its reader → cross-rules → model.

Loading is all-or-nothing: either a complete :class:`Placements` comes back, or :class:`PlacementError`
lists every problem found (``file:line:column``, each with its fix).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

from broadcast import media
from broadcast.sponsors.placements.assets import film_files, served_root
from broadcast.sponsors.placements.breaks import read_rundown
from broadcast.sponsors.placements.context import Build
from broadcast.sponsors.placements.fields import read_sponsors
from broadcast.sponsors.placements.model import Issue, PlacementError, Placements, RundownConfig
from broadcast.sponsors.placements.nodes import NodeReader
from broadcast.sponsors.placements.rules import check_cross_rules
from broadcast.sponsors.placements.slots import SLOT_SPECS, read_section
from engine.yamlread import Node, YamlError, compose, decode, read

FORMAT = "gouji-placements/1"
HEADER = ("show", "season")
REQUIRED_SECTIONS = ("format", "sponsors") + tuple(s.section for s in SLOT_SPECS if s.section_required)
OPTIONAL_SECTIONS = HEADER + tuple(s.section for s in SLOT_SPECS if not s.section_required) + ("rundown",)


def load_placements(
    path: str | Path, *, air_date: date | None = None, assets_root: str | Path | None = None
) -> Placements:
    """Read, validate and return the placements; raise :class:`PlacementError` listing every problem."""
    p = Path(path)
    shown = str(path)
    try:
        raw = read(p)  # over the size limit: refused before it is read
    except YamlError as exc:
        raise PlacementError([_yaml_issue(exc)]) from None
    except OSError as exc:
        raise PlacementError(
            [
                Issue(
                    shown,
                    1,
                    1,
                    f"无法读取文件（{exc.strerror or exc}）",
                    "检查路径是否正确",
                    message_en=f"cannot read the file ({exc.strerror or exc})",
                    fix_en="check the path",
                )
            ]
        ) from exc
    try:
        text = decode(raw, shown)
    except YamlError as exc:
        raise PlacementError([_yaml_issue(exc)]) from None
    return parse_placements(
        text,
        shown,
        base=p.resolve().parent,
        air_date=air_date,
        assets_root=assets_root,
        digest=hashlib.sha256(raw).hexdigest()[:16],
    )


def _yaml_issue(exc: YamlError) -> Issue:
    return Issue(exc.file, exc.line, exc.column, exc.zh, exc.fix_zh, message_en=exc.en, fix_en=exc.fix_en)


def parse_placements(
    text: str,
    filename: str,
    *,
    base: Path,
    air_date: date | None = None,
    assets_root: str | Path | None = None,
    digest: str = "",
    composed: Node | None = None,
) -> Placements:
    """Validate a placements text (``base``: the folder its asset paths are relative to). ``composed``:
    the text's node tree when the caller has composed it already (``engine.yamlread.compose``: the
    producer reads every place of it too, at each edit); it is not changed."""
    try:
        root_node = composed if composed is not None else compose(text, filename)
    except YamlError as exc:
        raise PlacementError([_yaml_issue(exc)]) from None
    if root_node is None:
        raise PlacementError(
            [
                Issue(
                    filename,
                    1,
                    1,
                    "文件是空的",
                    "按 docs/sponsors.md 写排期",
                    message_en="the file is empty",
                    fix_en="write the placements as docs/sponsors.md shows",
                )
            ]
        )
    r = NodeReader(filename)
    b = Build(r, base, served_root(base, assets_root), air_date)
    media.prefetch_videos(base / f for f in film_files(root_node))  # ffprobe them side by side
    top = r.mapping(root_node, "排期文件", REQUIRED_SECTIONS, OPTIONAL_SECTIONS)
    if top is None:
        raise PlacementError(r.issues)
    fmt = r.text(top["format"], "format") if "format" in top else None
    if "format" in top and fmt is not None and fmt != FORMAT:
        r.error(
            top["format"],
            f"不认识的格式版本 {fmt!r}",
            f"写 format: {FORMAT}",
            en=(f"unknown format version {fmt!r}", f"write format: {FORMAT}"),
        )
    show = r.text(top["show"], "show") if "show" in top else "够级大明星"
    season = r.text(top["season"], "season") if "season" in top else ""
    if "sponsors" in top:
        read_sponsors(b, top["sponsors"])
    for spec in SLOT_SPECS:
        if spec.section in top:
            read_section(b, spec, top[spec.section])
    rundown = read_rundown(b, top["rundown"]) if "rundown" in top else RundownConfig()
    check_cross_rules(b, rundown)
    issues = sorted(r.issues, key=lambda i: (i.line, i.column))
    if r.has_errors():
        raise PlacementError(issues)
    return Placements(
        file=filename,
        digest=digest,
        show=show or "够级大明星",
        season=season or "",
        sponsors=dict(b.sponsors),
        slots=tuple(b.slots),
        rundown=rundown,
        air_date=air_date,
        warnings=tuple(issues),
    )


def parse_air_date(text: str, fail: Callable[[str], None] | None = None) -> date | None:
    try:
        return datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        if fail:
            fail(f"播出日期 {text!r} 应写成 YYYY-MM-DD")
        return None
