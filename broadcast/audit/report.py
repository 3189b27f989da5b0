"""The audit's report: ``report.json`` (every moment measured and its findings), ``report.html`` (the
findings with their screenshots, for a person) and one screenshot per moment with a finding — the program
page as a viewer sees it, over the studio's background, the boxes concerned marked in red and the findings
written across the top (``--shots all``: every moment)."""

from __future__ import annotations

import html
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from broadcast import tokens as T
from broadcast.audit.probe import Finding

STUDIO = "#10241d"  # what OBS shows behind the graphics (obs/layout.py's studio background): the
# audit's page is drawn over it
MARK = (255, 40, 40, 255)


@dataclass
class MomentRecord:
    index: int
    label: str
    seq: int
    at: float  # seconds since the episode started (its own clock)
    program: list[str]
    findings: list[Finding] = field(default_factory=list)
    shot: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "label": self.label,
            "seq": self.seq,
            "at": round(self.at, 3),
            "program": self.program,
            "findings": [f.to_json() for f in self.findings],
            "shot": self.shot,
        }


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        from broadcast.obs.graphics.raster import font_file

        path, index = font_file(T.native_font(), True)
        return ImageFont.truetype(path, size, index=index)
    except Exception:  # noqa: BLE001 - a report without its CJK font still shows the boxes
        return ImageFont.load_default()


def shot(picture: bytes, findings: Sequence[Finding], path: Path) -> None:
    """The page's screenshot (over the studio's colour), the findings' boxes marked and their words on
    top; written to ``path`` (JPEG: what a viewer sees needs no more)."""
    out = Image.open(io.BytesIO(picture)).convert("RGB")
    if findings:
        draw = ImageDraw.Draw(out, "RGBA")
        for f in findings:
            for b in f.boxes:
                draw.rectangle([b[0], b[1], b[2], b[3]], outline=MARK, width=4)
        font = _font(26)
        y = 8
        for f in findings[:6]:
            draw.rectangle([0, y - 4, out.width, y + 34], fill=(0, 0, 0, 200))
            draw.text((12, y), f"{f.zh} / {f.en}", font=font, fill=MARK)
            y += 40
    out.save(path, quality=88)


def write(out: Path, moments: Sequence[MomentRecord], meta: dict[str, Any]) -> tuple[Path, Path]:
    """report.json and report.html in ``out``."""
    findings = [f for m in moments for f in m.findings]
    data = {**meta, "findings": len(findings), "moments": [m.to_json() for m in moments]}
    j = out / "report.json"
    j.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    rows = []
    for m in moments:
        if not m.findings:
            continue
        items = "".join(f"<li>{html.escape(f.text())}</li>" for f in m.findings)
        img = f'<img src="{html.escape(m.shot)}" width="960">' if m.shot else ""
        rows.append(
            f"<section><h2>#{m.index} {html.escape(m.label)} (seq {m.seq}, {m.at:.1f} s)</h2>"
            f"<p>节目 program: {html.escape(', '.join(m.program) or '—')}</p><ul>{items}</ul>{img}</section>"
        )
    extra = "".join(
        f"<li>{html.escape(str(k))}: {html.escape(json.dumps(v, ensure_ascii=False))}</li>"
        for k, v in meta.items()
    )
    body = "".join(rows) or "<p>没有发现问题 / no findings</p>"
    h = out / "report.html"
    h.write_text(
        "<!doctype html><html lang='zh-CN'><meta charset='utf-8'><title>播出检查 on-air audit</title>"
        f"<h1>播出检查 on-air audit: {len(findings)} 个问题 findings in {len(moments)} moments</h1>"
        f"<ul>{extra}</ul>{body}</html>",
        encoding="utf-8",
    )
    return j, h
