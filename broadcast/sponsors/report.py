"""The sponsor exposure report: XLSX for the producer, a printable HTML/PDF a sponsor can be sent.

    paths = write_reports(exposure, placements, out_dir, proofs=log.proofs(episode))

XLSX (openpyxl): 汇总, OBS中断 (outages), one sheet per sponsor, 播出记录 (as-run with each row's chain
hash), 九宫格抽奖, 爱心基金; shortfalls in red.
HTML: a Jinja2 template (``templates/report.html.j2``, autoescaping on: a sponsor called ``<b>`` prints
as that string), self-contained (logos and proof-of-air thumbnails embedded as data URIs), A4 print
CSS; the first page says whether there was any evidence of air, lists OBS's outages and the result of
the chain check; every page prints the chain's head. Rendered to PDF by headless Chromium (Playwright
``page.pdf``).
"""

from __future__ import annotations

import base64
import html
import io
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from importlib.resources import files
from pathlib import Path

import jinja2
from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet
from PIL import Image

from broadcast.chromium import CHROMIUM, CHROMIUM_ARGS
from broadcast.clock import STUDIO_TZ
from broadcast.core.airlog import (
    CAUSES,
    DRAW,
    EPISODE_END,
    EPISODE_START,
    FILM_END,
    FILM_START,
    GRAPHIC_OFF,
    GRAPHIC_ON,
    MENTION,
    MENTION_RETRACT,
    OBS_DOWN,
    OBS_UP,
    PROGRAM_SCENE,
    PROOF,
)
from broadcast.core.files import atomic_path, write_text
from broadcast.sponsors.asrun import PREFLIGHT_OVERRIDE, SHOT, Proof, StoredEvent
from broadcast.sponsors.exposure import EpisodeExposure, Metric, SponsorExposure
from broadcast.sponsors.placements import Asset, Placements

RED_FILL = PatternFill("solid", fgColor="FFC7CE")
RED_FONT = Font(color="9C0006", bold=True)
GREEN_FONT = Font(color="006100")
HEAD_FILL = PatternFill("solid", fgColor="1F3864")
HEAD_FONT = Font(color="FFFFFF", bold=True)
THIN = Side(style="thin", color="BFBFBF")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
KIND_ZH = {
    GRAPHIC_ON: "图形上屏",
    GRAPHIC_OFF: "图形下屏",
    FILM_START: "宣传片开始",
    FILM_END: "宣传片结束",
    PROGRAM_SCENE: "切换场景",
    MENTION: "口播",
    MENTION_RETRACT: "撤销口播（按错，不计）",
    DRAW: "九宫格抽奖",
    PROOF: "播出截图",
    "proof_failed": "截图未通过核对（不作证明）",
    SHOT: "现场广告出镜",
    OBS_DOWN: "OBS 中断",
    OBS_UP: "OBS 恢复（画面已确认）",
    EPISODE_START: "本期开始",
    EPISODE_END: "本期结束",
    PREFLIGHT_OVERRIDE: "开录前检查未通过，导播确认开录",
}
SOURCE_ZH = {
    "obs": "OBS",
    "echo": "OBS 内网页回报",
    "app": "应用",
    "operator": "运营员",
    "rehearsal": "演练（非播出）",
}
METRIC_HEAD = ("广告位", "项目", "每期承诺", "实际", "单位", "结果", "说明")
MIN_ZH = {
    "mentions": ("口播", "次"),
    "appearances": ("出镜", "次"),
    "seconds": ("在屏", "秒"),
    "bumper": ("标版", "次"),
    "film": ("宣传片", "次"),
    "coverage": ("角标覆盖", "%"),
    "draws": ("被抽中", "次"),
}


def minimums_zh(minimums: dict[str, float]) -> str:
    parts = []
    for k, v in minimums.items():
        word, unit = MIN_ZH.get(k, (k, ""))
        parts.append(f"{word} ≥{fmt_num(v)}{unit}")
    return "；".join(parts) or "—"


@dataclass(frozen=True)
class ReportFiles:
    xlsx: Path | None
    html: Path | None
    pdf: Path | None
    sponsor_pdfs: dict[str, Path]
    sponsor_htmls: dict[str, Path]


def beijing(ts: float, fmt: str = "%H:%M:%S") -> str:
    return datetime.fromtimestamp(ts, STUDIO_TZ).strftime(fmt)


def rel(ts: float, start: float) -> str:
    s = max(0.0, ts - start)
    return f"{int(s) // 60:02d}:{s % 60:04.1f}"


def fmt_num(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:g}" if abs(value - round(value)) > 1e-9 else str(int(round(value)))


def describe(e: StoredEvent, p: Placements) -> str:
    return _described(e, p) + _boundary(e.detail)


def _boundary(d: dict[str, object]) -> str:
    """A row at an episode's boundary: carried on air from the episode before (or from before any), or
    closed at the episode's end (``docs/sponsors.md``, "Each row in the episode it aired in")."""
    if "carried" in d:
        return f"（自{d['carried']}接续在播）" if d["carried"] else "（本期开始前已在播）"
    if "episode_end" in (d.get("reason"), d.get("stopped")):
        return "（本期结束时仍在播，下期接续）"
    return ""


def _described(e: StoredEvent, p: Placements) -> str:
    d = e.detail
    if e.kind in (GRAPHIC_ON, GRAPHIC_OFF):
        item = d.get("item", "")
        extra = "（交接）" if d.get("handover") else ""
        return f"{e.subject}{'：' + str(item) if item else ''}{extra}"
    if e.kind in (FILM_START, FILM_END):
        f = p.films.get(e.subject)
        return f"{e.subject}（{p.sponsor_name(f.sponsor)} {f.seconds}秒）" if f else e.subject
    if e.kind == MENTION:
        return p.sponsor_name(e.subject)
    if e.kind == MENTION_RETRACT:
        of = f"{beijing(float(d['of_ts']))} 的" if d.get("of_ts") else ""
        why = f"：{d['reason']}" if d.get("reason") else ""
        return f"撤销 {of}口播 {p.sponsor_name(e.subject)}（按错，不计）{why}"
    if e.kind == PREFLIGHT_OVERRIDE:
        red = [str(x) for x in d.get("red", [])]
        return f"开录时有 {len(red)} 项开录前检查未通过：" + "；".join(red)
    if e.kind == DRAW:
        return (
            f"{d.get('contestant', '')} 抽中第{int(d.get('cell', 0)) + 1}格 {d.get('prize', '')}"
            f"（{d.get('sponsor_name') or p.sponsor_name(str(d.get('sponsor', '')))}）"
        )
    if e.kind == SHOT:
        slot = p.one(e.subject)
        return f"{slot.label}（{p.sponsor_name(slot.sponsor)}）" if slot else e.subject
    if e.kind == OBS_DOWN:
        zh, en = CAUSES.get(e.subject, (e.subject, e.subject))
        return f"{zh} / {en}" + (f"：{d['detail']}" if d.get("detail") else "")
    if e.kind == PROOF:
        return f"{e.subject} 截图 SHA-256 {str(d.get('sha256', ''))[:16]}…{_checked(d)}"
    if e.kind == "proof_failed":
        return f"{e.subject} 截图未显示该图形，不作证明：{d.get('reason', '')}{_checked(d)}"
    return e.subject


def _checked(detail: dict[str, object]) -> str:
    """How a proof's picture was checked against the graphic's render, as its row keeps it: the mean
    colour difference and the correlation of edges (rows written before the edges were measured have
    only the colour; an unchecked proof — a page or a film — nothing)."""
    check = detail.get("check")
    if not isinstance(check, dict) or "mean_diff" not in check:
        return ""
    parts = [f"色差 {check['mean_diff']}"]
    if check.get("edges") is not None:
        parts.append(f"轮廓相关 {check['edges']}")
    return f"（核对：{'，'.join(parts)}）"


def safe_name(text: str) -> str:
    return re.sub(r"[\\/:*?\"<>|\s]+", "_", text).strip("_") or "episode"


# ------------------------------------------------------------------------------------------- XLSX
def _sponsor_sheet(sh: Worksheet, x: EpisodeExposure, s: SponsorExposure) -> None:
    """One sponsor's sheet: its slots with contracts and prices, then promised vs delivered."""
    sh.append([f"{s.name}（{s.full_name}） 第 {x.episode} 期 播出报告"])
    sh["A1"].font = Font(size=13, bold=True)
    sh.append(["播出日期", x.air_date, "节目时长", f"{x.duration / 60:.1f} 分钟"])
    sh.append([])
    sh.append(["广告位", "合同期", "价格", "每期承诺"])
    _head(sh, sh.max_row)
    for slot in s.slots:
        c = slot.contract
        sh.append(
            [
                slot.label if slot.kind != "credits" else f"片尾鸣谢（{slot.role}）",
                f"{c.start} 至 {c.end}" if c else "（随主合同）",
                slot.price.label() if slot.price else "—",
                minimums_zh(slot.minimums),
            ]
        )
    sh.append([])
    sh.append(METRIC_HEAD)
    _head(sh, sh.max_row)
    for m in s.metrics:
        sh.append([m.slot_label, m.what, fmt_num(m.promised), fmt_num(m.delivered), m.unit, m.status, m.note])
        _mark(sh, sh.max_row, m)
    sh.append([])
    sh.append(["未达标项目", len(s.shortfalls)])
    if s.shortfalls:
        sh.cell(row=sh.max_row, column=2).font = RED_FONT
    _widths(sh, [26, 26, 24, 10, 6, 8, 70])


def write_xlsx(x: EpisodeExposure, p: Placements, path: Path) -> Path:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "汇总"
    ws.append([f"《{p.show}》{p.season} 赞助商播出报告"])
    ws["A1"].font = Font(size=14, bold=True)
    for k, v in _facts(x, p):
        ws.append([k, v])
    ws.append([])
    ws.append(("赞助商",) + METRIC_HEAD)
    _head(ws, ws.max_row)
    for s in x.sponsors:
        for m in s.metrics:
            ws.append(
                [
                    s.name,
                    m.slot_label,
                    m.what,
                    fmt_num(m.promised),
                    fmt_num(m.delivered),
                    m.unit,
                    m.status,
                    m.note,
                ]
            )
            _mark(ws, ws.max_row, m)
    _widths(ws, [16, 26, 26, 12, 10, 6, 8, 70])
    ws.freeze_panes = f"A{len(_facts(x, p)) + 4}"
    used: set[str] = {"汇总", "OBS中断", "播出记录", "九宫格抽奖", "爱心基金"}
    for s in x.sponsors:
        _sponsor_sheet(wb.create_sheet(_sheet_title(s.name, used)), x, s)
    out = wb.create_sheet("OBS中断", 1)
    out.append(["开始（北京时间）", "结束", "时长（秒）", "原因", "Cause", "说明"])
    _head(out, 1)
    for o in x.outages:
        out.append([beijing(o.start), beijing(o.end), round(o.seconds, 1), o.cause_zh, o.cause_en, o.detail])
    out.append([])
    out.append(["合计", "", round(x.outage_seconds, 1), f"{len(x.outages)} 次，中断期间不计任何播出"])
    _widths(out, [18, 12, 12, 34, 40, 40])
    log = wb.create_sheet("播出记录")
    log.append(["北京时间", "节目内时间", "类型", "内容", "来源", "记录号", "SHA-256（链）"])
    _head(log, 1)
    for e in x.events:
        log.append(
            [
                beijing(e.ts) + f".{int(e.ts * 1000) % 1000:03d}",
                rel(e.ts, x.start),
                KIND_ZH.get(e.kind, e.kind),
                describe(e, p),
                SOURCE_ZH.get(e.source, e.source),
                e.id,
                e.hash,
            ]
        )
    _widths(log, [16, 12, 18, 50, 14, 10, 70])
    draws = wb.create_sheet("九宫格抽奖")
    draws.append(["序号", "北京时间", "选手", "格子", "奖品", "赞助商"])
    _head(draws, 1)
    for n, e in enumerate(x.draws, start=1):
        d = e.detail
        draws.append(
            [
                n,
                beijing(e.ts),
                d.get("contestant", ""),
                int(d.get("cell", 0)) + 1,
                d.get("prize", ""),
                d.get("sponsor_name") or p.sponsor_name(str(d.get("sponsor", ""))),
            ]
        )
    _widths(draws, [8, 12, 14, 8, 22, 18])
    ch = wb.create_sheet("爱心基金")
    ch.append(["北京时间", "选手", "奖金（元）", "说明"])
    _head(ch, 1)
    for pr in x.prizes:
        ch.append([beijing(pr.ts), pr.contestant, pr.yuan, pr.note])
    ch.append([])
    ch.append(["本期奖金合计", "", x.prize_total])
    ch.append(["本期爱心基金（10%）", "", x.charity])
    ch.append(["本季累计奖金", "", x.season_prize_total])
    ch.append(["本季累计爱心基金（10%）", "", x.season_charity])
    for row in ch.iter_rows(min_row=2, min_col=3, max_col=3):
        for cell in row:
            cell.number_format = "#,##0.00"
    _widths(ch, [22, 14, 14, 30])
    path.parent.mkdir(parents=True, exist_ok=True)
    # saved in memory, then written whole or not at all: a full disk fails on a plain write (openpyxl's
    # zip writer would leave an empty file and a half-closed zip that prints a traceback at exit)
    buf = io.BytesIO()
    wb.save(buf)
    with atomic_path(path) as tmp:
        tmp.write_bytes(buf.getvalue())
    return path


def _facts(x: EpisodeExposure, p: Placements) -> list[tuple[str, str]]:
    src = sorted({SOURCE_ZH.get(e.source, e.source) for e in x.events})
    return [
        ("期数", x.episode),
        ("播出日期", x.air_date or "—"),
        ("开始（北京时间）", beijing(x.start, "%Y-%m-%d %H:%M:%S")),
        (
            "结束（北京时间）",
            beijing(x.end, "%Y-%m-%d %H:%M:%S") + ("（未正常结束）" if x.unfinished else ""),
        ),
        ("节目时长", f"{x.duration / 60:.1f} 分钟"),
        ("插播宣传片/广告合计", f"{x.film_seconds:.0f} 秒"),
        (
            "OBS 可见 / 中断",
            f"OBS 可见 {x.watched_seconds:.1f} 秒；"
            f"中断 {len(x.outages)} 次共 {x.outage_seconds:.1f} 秒（不计播出）",
        ),
        ("记录来源", "、".join(src) or "—"),
        (
            "播出记录链",
            (x.chain.summary_zh + f"；链头 {x.chain.head_hash}") if x.chain is not None else "未校验",
        ),
        ("排期文件", f"{Path(p.file).name}（{p.digest}）"),
        ("未达标项目", str(sum(len(s.shortfalls) for s in x.sponsors))),
        ("提示", "；".join(x.flags) or "—"),
    ]


def _head(ws: object, row: int) -> None:
    for cell in ws[row]:  # type: ignore[index]
        cell.fill = HEAD_FILL
        cell.font = HEAD_FONT
        cell.alignment = Alignment(vertical="center")
        cell.border = BOX


def _mark(ws: object, row: int, m: Metric) -> None:
    for cell in ws[row]:  # type: ignore[index]
        cell.border = BOX
        cell.alignment = Alignment(vertical="top", wrap_text=True)
        if m.shortfall:
            cell.fill = RED_FILL
            cell.font = RED_FONT
        elif m.promised is not None and cell.value == "达标":
            cell.font = GREEN_FONT


def _widths(ws: object, widths: list[int]) -> None:
    for i, w in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = w  # type: ignore[attr-defined]


def _sheet_title(name: str, used: set[str]) -> str:
    base = re.sub(r"[\[\]:*?/\\]", "_", name)[:28] or "赞助商"
    title, n = base, 2
    while title in used:
        title, n = f"{base}{n}", n + 1
    used.add(title)
    return title


# ------------------------------------------------------------------------------------------- HTML
# The HTML goes through Jinja2 with autoescaping on (templates/report.html.j2): every value is text.
_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("broadcast.sponsors", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _logo_uri(asset: Asset | None) -> str:
    if asset is None or not asset.path.is_file():
        return ""
    mime = {
        ".png": "image/png",
        ".jpg": "image/jpeg",
        ".jpeg": "image/jpeg",
        ".webp": "image/webp",
        ".svg": "image/svg+xml",
    }.get(asset.path.suffix.lower(), "image/png")
    return _data_uri(asset.path.read_bytes(), mime)


def thumbnail(proof: Proof, width: int = 360) -> bytes:
    with Image.open(io.BytesIO(proof.jpeg)) as src:
        im = src.convert("RGB")
    if im.width > width:
        im = im.resize((width, max(1, round(im.height * width / im.width))))
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=80)
    return buf.getvalue()


def _metric_rows(metrics: Iterable[Metric], names: dict[str, str] | None = None) -> list[dict[str, object]]:
    return [
        {
            "sponsor": (names or {}).get(m.sponsor, m.sponsor),
            "slot": m.slot_label,
            "what": m.what,
            "promised": fmt_num(m.promised),
            "delivered": fmt_num(m.delivered),
            "unit": m.unit,
            "status": m.status,
            "note": m.note,
            "short": m.shortfall,
            "ok": m.promised is not None and not m.shortfall,
        }
        for m in metrics
    ]


def _chain(x: EpisodeExposure) -> dict[str, object]:
    c, s = x.chain, x.seal
    if c is None:
        return {
            "ok": False,
            "verdict": "未校验",
            "summary": "未做链校验",
            "head_id": "—",
            "head_hash": "—",
            "seal": None,
        }
    ok = c.ok and (s is None or s.verified)
    seal = None
    if s is not None:
        seal = {
            "summary": f"{s.verdict_zh} / {s.verdict_en}",
            "fingerprint": s.fingerprint,
            "public_key": s.public_key,
            "receipt": bool(s.receipt_head),
            "receipt_head": s.receipt_head,
            "receipt_head_id": s.receipt_head_id,
            "receipt_signature": s.receipt_signature,
            "receipt_time": s.receipt_time,
        }
    return {
        "ok": ok,
        "verdict": "通过 ✓" if ok else "未通过 ✗",
        "summary": f"{c.summary_zh} / {c.summary_en}",
        "head_id": c.head_id,
        "head_hash": c.head_hash,
        "seal": seal,
    }


def _slot_rows(s: SponsorExposure) -> list[dict[str, str]]:
    rows = []
    for slot in s.slots:
        c = slot.contract
        rows.append(
            {
                "label": slot.label if slot.kind != "credits" else f"片尾鸣谢（{slot.role}）",
                "contract": f"{c.start} 至 {c.end}" if c else "（随主合同）",
                "price": slot.price.label() if slot.price else "—",
                "minimums": minimums_zh(slot.minimums),
            }
        )
    return rows


def _proof_figures(
    x: EpisodeExposure, p: Placements, s: SponsorExposure, proofs: dict[int, Proof]
) -> list[dict[str, object]]:
    by_id = {e.id: e for e in x.events}
    out: list[dict[str, object]] = []
    for eid in [eid for eid in s.evidence if eid in proofs][:9]:
        e = by_id.get(eid)
        proof = proofs[eid]
        row = by_id.get(proof.event_id)
        cap = f"{beijing(e.ts)} · {KIND_ZH.get(e.kind, e.kind)} · {describe(e, p)}" if e else f"#{eid}"
        out.append(
            {
                "id": eid,
                "uri": _data_uri(thumbnail(proof), "image/jpeg"),
                "caption": f"{cap}（截图记录 #{proof.event_id}）",
                "sha": str((row.detail if row else {}).get("sha256", "")),
            }
        )
    return out


def report_context(
    x: EpisodeExposure, p: Placements, proofs: dict[int, Proof] | None = None, only: str | None = None
) -> dict[str, object]:
    """Everything the template shows, as plain values (the template escapes them)."""
    proofs = proofs or {}
    sponsors = [s for s in x.sponsors if only is None or s.sponsor == only]
    title = f"《{p.show}》{x.episode} 赞助商播出报告" + (
        f" · {sponsors[0].name}" if only and sponsors else ""
    )
    names = {s.sponsor: s.name for s in sponsors}
    evidence = {e.id for e in x.events if e.kind == DRAW and any(a <= e.ts <= b for a, b in x.watched)}
    outages = [
        {
            "start": beijing(o.start),
            "end": beijing(o.end),
            "seconds": f"{o.seconds:.1f}",
            "cause": f"{o.cause_zh} / {o.cause_en}",
            "detail": o.detail,
        }
        for o in x.outages
    ]
    return {
        "title": title,
        "css": (files("broadcast.sponsors") / "templates" / "report.css").read_text(encoding="utf-8"),
        "summary": only is None,
        "episode": x.episode,
        "show": p.show,
        "season": p.season,
        "air_date": x.air_date or "—",
        "rehearsal": x.rehearsal,
        "no_evidence": x.no_evidence,
        "chain": _chain(x),
        "facts": _facts(x, p),
        "flags": x.flags,
        "sources": "、".join(sorted({SOURCE_ZH.get(e.source, e.source) for e in x.events})) or "—",
        "start_full": beijing(x.start, "%Y-%m-%d %H:%M:%S"),
        "end_time": beijing(x.end, "%H:%M:%S"),
        "outages": outages,
        "outage_total": f"{x.outage_seconds:.1f}",
        "outage_list": "；".join(f"{o['start']}–{o['end']} {o['cause']}" for o in outages[:6])
        + ("…" if len(outages) > 6 else ""),
        "metric_head": METRIC_HEAD,
        "sponsor_rows": [
            {
                "name": s.name,
                "slots": "、".join(
                    dict.fromkeys(sl.label if sl.kind != "credits" else "片尾鸣谢" for sl in s.slots)
                ),
                "promised": sum(1 for m in s.metrics if m.promised is not None),
                "short": len(s.shortfalls),
            }
            for s in sponsors
        ],
        "shortfalls": _metric_rows([m for s in sponsors for m in s.shortfalls], names),
        "draws": [
            {
                "time": beijing(e.ts),
                "contestant": e.detail.get("contestant", ""),
                "cell": int(e.detail.get("cell", 0)) + 1,
                "prize": e.detail.get("prize", ""),
                "sponsor": e.detail.get("sponsor_name", ""),
                "counted": "计入" if e.id in evidence else "不计（OBS 中断或无播出证据）",
            }
            for e in x.draws
        ],
        "charity": {
            "prize_total": f"{x.prize_total:,.2f}",
            "count": len(x.prizes),
            "share": f"{x.charity:,.2f}",
            "season_total": f"{x.season_prize_total:,.2f}",
            "season_share": f"{x.season_charity:,.2f}",
        },
        "sponsors": [
            {
                "name": s.name,
                "full_name": s.full_name,
                "logo": _logo_uri(p.sponsors[s.sponsor].logo if s.sponsor in p.sponsors else None),
                "short": len(s.shortfalls),
                "slots": _slot_rows(s),
                "metrics": _metric_rows(s.metrics),
                "proofs": _proof_figures(x, p, s, proofs),
            }
            for s in sponsors
        ],
    }


def render_template(name: str, context: dict[str, object]) -> str:
    """One of the report templates (``templates/*.j2``, autoescaped): the episode report, the season's."""
    return _ENV.get_template(name).render(context)


def render_html(
    x: EpisodeExposure, p: Placements, proofs: dict[int, Proof] | None = None, only: str | None = None
) -> str:
    return _ENV.get_template("report.html.j2").render(report_context(x, p, proofs, only))


def pdf_footer(x: EpisodeExposure) -> str:
    """The running footer of every printed page: the chain's head and the page number (Chromium's
    footer template; its values are escaped here, the template is not autoescaped)."""
    c, s = x.chain, x.seal
    ok = c is not None and c.ok and (s is None or s.verified)
    verdict = ("通过" if ok else "未通过") if c is not None else "未校验"
    head = f"#{c.head_id} {c.head_hash}" if c is not None else "—"
    key = f" · 演播室公钥 {s.fingerprint[:23]}…" if s is not None else ""
    text = html.escape(f"{x.episode} · 播出记录链校验{verdict} · 链头 {head}{key}")
    return (
        "<div style='font-size:6.5pt;width:100%;padding:0 12mm;color:#555;"
        'font-family:"Noto Sans CJK SC",sans-serif;display:flex;justify-content:space-between\'>'
        f"<span>{text}</span>"
        "<span><span class='pageNumber'></span>/<span class='totalPages'></span></span></div>"
    )


def html_to_pdf(pages: list[tuple[str, Path]], footer: str = "") -> list[Path]:
    """Render HTML documents to A4 PDFs with one headless Chromium.

    Playwright's sync API refuses to run in a thread that already has an asyncio loop running (the
    console's, a test's browser session), so the rendering always happens on a worker thread of its own.
    """
    result: list[list[Path]] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(_html_to_pdf(pages, footer))
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)

    worker = threading.Thread(target=work, name="report-pdf", daemon=True)
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return result[0]


def _html_to_pdf(pages: list[tuple[str, Path]], footer: str) -> list[Path]:
    from playwright.sync_api import sync_playwright

    done: list[Path] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            for text, out in pages:
                page.set_content(text, wait_until="load")
                out.parent.mkdir(parents=True, exist_ok=True)
                pdf = page.pdf(  # in memory, then whole or not at all (a full disk leaves no half PDF)
                    format="A4",
                    print_background=True,
                    prefer_css_page_size=True,
                    display_header_footer=bool(footer),
                    header_template="<span></span>",
                    footer_template=footer or "<span></span>",
                )
                with atomic_path(out) as tmp:
                    tmp.write_bytes(pdf)
                done.append(out)
        finally:
            browser.close()
    return done


def write_reports(
    x: EpisodeExposure,
    p: Placements,
    out_dir: Path,
    *,
    proofs: dict[int, Proof] | None = None,
    xlsx: bool = True,
    pdf: bool = True,
    sponsor: str | None = None,
) -> ReportFiles:
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"赞助商播出报告_{safe_name(x.episode)}"
    xlsx_path = write_xlsx(x, p, out_dir / f"{stem}.xlsx") if xlsx and sponsor is None else None
    docs: list[tuple[str, Path]] = []
    html_path: Path | None = None
    if sponsor is None:
        html_path = out_dir / f"{stem}.html"
        text = render_html(x, p, proofs)
        write_text(html_path, text)
        docs.append((text, out_dir / f"{stem}.pdf"))
    sponsor_htmls: dict[str, Path] = {}
    for s in x.sponsors:
        if sponsor is not None and s.sponsor != sponsor:
            continue
        text = render_html(x, p, proofs, only=s.sponsor)
        path = out_dir / "sponsors" / f"{safe_name(x.episode)}_{s.sponsor}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, text)
        sponsor_htmls[s.sponsor] = path
        docs.append((text, path.with_suffix(".pdf")))
    pdfs = html_to_pdf(docs, pdf_footer(x)) if pdf else []
    main_pdf = next((q for q in pdfs if q.parent == out_dir), None)
    sponsor_pdfs = {
        sid: h.with_suffix(".pdf") for sid, h in sponsor_htmls.items() if h.with_suffix(".pdf") in pdfs
    }
    return ReportFiles(xlsx_path, html_path, main_pdf, sponsor_pdfs, sponsor_htmls)
