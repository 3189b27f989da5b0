"""The files a placements file points at: where they are served from, and are they what they claim.

A logo must be a real PNG/JPEG/WebP image and a film a real MP4/MOV video of the declared length
(:mod:`broadcast.media` probes them); both must lie inside the served folder
(``sponsor_assets/``, served at ``/assets/sponsors/``), since the pages can only show what the overlay
server can serve.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from broadcast import media, resources
from broadcast.sponsors.placements.context import Build
from broadcast.sponsors.placements.english import what_en
from broadcast.sponsors.placements.model import Asset, Issue, PlacementError, Placements
from engine.yamlread import MappingNode, Node, ScalarNode, SequenceNode

ASSETS_URL = "/assets/sponsors/"


def served_root(base: Path, assets_root: str | Path | None) -> Path:
    """The folder served at /assets/sponsors/: given, or sponsor_assets/ for files inside it, or base."""
    if assets_root is not None:
        return Path(assets_root).resolve()
    shipped = resources.sponsor_assets_dir().resolve()
    try:
        base.relative_to(shipped)
        return shipped
    except ValueError:
        return base


def read_asset(b: Build, node: Node, what: str, kind: str) -> Asset | None:
    """The asset a node names (``kind`` "image" or "video"), probed; None after an error."""
    rel = b.r.text(node, what)
    if rel is None:
        return None
    if Path(rel).is_absolute() or rel.startswith("~"):
        b.r.error(
            node,
            f"{what} {rel!r} 是绝对路径",
            "写成相对于排期文件所在文件夹的路径（如 logos/x.png）",
            en=(
                f"{what_en(what)} {rel!r} is an absolute path",
                "write it relative to the placements file's folder (e.g. logos/x.png)",
            ),
            topic="asset",
        )
        return None
    path = (b.base / rel).resolve()
    try:
        served = path.relative_to(b.root)
    except ValueError:
        b.r.error(
            node,
            f"{what} {rel!r} 在素材文件夹 {b.root} 之外，图形服务器无法提供",
            "把文件放进 sponsor_assets/ 里并改写路径",
            en=(
                f"{what_en(what)} {rel!r} is outside the assets folder {b.root}: the graphics server cannot "
                "serve it",
                "put the file in sponsor_assets/ and change the path",
            ),
            topic="asset",
        )
        return None
    if not path.is_file():
        b.r.error(
            node,
            f"{what} 文件不存在：{rel}",
            "检查文件名（区分大小写），或先运行 python sponsor_assets/make_demo_assets.py 生成演示素材",
            en=(
                f"{what_en(what)}: no such file: {rel}",
                "check the file name (case matters), or run python sponsor_assets/make_demo_assets.py first "
                "to make the demo assets",
            ),
            topic="asset",
        )
        return None
    url = ASSETS_URL + served.as_posix()
    try:
        if kind == "image":
            info = media.probe_image(path)
            return Asset(rel, path, url, "image", width=info.width, height=info.height)
        vinfo = media.probe_video(path)
        return Asset(rel, path, url, "video", seconds=vinfo.seconds)
    except media.ProbeUnavailable as exc:  # not this file's fault: one line for the whole check
        raise PlacementError(
            [
                Issue(
                    b.r.file,
                    b.r.line(node),
                    node.start_mark.column + 1,
                    f"{what} {rel} 无法检查：{exc}",
                    "安装 FFmpeg（sudo apt-get install ffmpeg，或运行 scripts/setup.sh）",
                    message_en=f"{what_en(what)} {rel} cannot be checked: {exc.en}",
                    fix_en="install FFmpeg (sudo apt-get install ffmpeg, or run scripts/setup.sh)",
                    topic="asset",
                )
            ]
        ) from None
    except media.MediaError as exc:
        want = "PNG/JPEG/WebP 图片" if kind == "image" else "MP4（H.264）视频"
        want_en = "PNG/JPEG/WebP image" if kind == "image" else "MP4 (H.264) video"
        b.r.error(
            node,
            f"{what} {rel} {exc.zh}",
            f"换成真正的{want}",
            en=(f"{what_en(what)} {rel}: {exc.en}", f"use a real {want_en}"),
            topic="asset",
        )
        return None
    except OSError as exc:
        b.r.error(
            node,
            f"{what} {rel} 无法读取（{exc}）",
            "检查文件权限",
            en=(f"{what_en(what)} {rel} cannot be read ({exc})", "check the file's permissions"),
            topic="asset",
        )
        return None


def film_files(node: Node | None) -> list[str]:
    """Every ``film: {file: …}`` written anywhere in a file's YAML (to probe them all at once)."""
    out: list[str] = []
    stack = [node]
    seen: set[int] = set()
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, MappingNode):
            for k, v in n.value:
                if isinstance(k, ScalarNode) and k.value == "film" and isinstance(v, MappingNode):
                    out.extend(
                        str(fv.value)
                        for fk, fv in v.value
                        if isinstance(fk, ScalarNode) and fk.value == "file" and isinstance(fv, ScalarNode)
                    )
                stack.append(v)
        elif isinstance(n, SequenceNode):
            stack.extend(n.value)
    return out


def iter_assets(p: Placements) -> Iterator[tuple[str, Asset]]:
    """Every asset the placements use: (what, asset)."""
    for sp in p.sponsors.values():
        if sp.logo:
            yield f"{sp.name} logo", sp.logo
    for s in p.slots:
        if s.logo:
            yield f"{s.label} logo", s.logo
        if s.film:
            yield f"{s.label} 宣传片 {s.film.id}", s.film.asset
