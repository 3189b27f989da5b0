"""The sponsor exposure report: XLSX for the producer, a printable HTML/PDF a sponsor can be sent.

    paths = write_reports(exposure, placements, out_dir, proofs=log.proofs(episode))

XLSX (openpyxl): 汇总, one sheet per sponsor, 播出记录 (as-run), 九宫格抽奖, 爱心基金; shortfalls in red.
HTML: self-contained (logos and proof-of-air thumbnails embedded as data URIs), A4 print CSS, one
page per sponsor; rendered to PDF by headless Chromium (Playwright ``page.pdf``). All text is
escaped: a sponsor called ``<b>`` prints as that string.
"""

from __future__ import annotations

import base64
import html
import io
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from PIL import Image

from broadcast.chromium import CHROMIUM, CHROMIUM_ARGS
from broadcast.core.airlog import (
    DRAW,
    FILM_END,
    FILM_START,
    GRAPHIC_OFF,
    GRAPHIC_ON,
    MENTION,
    PROGRAM_SCENE,
    PROOF,
)
from broadcast.sponsors.asrun import SHOT, Proof, StoredEvent
from broadcast.sponsors.exposure import EpisodeExposure, Metric, SponsorExposure
from broadcast.sponsors.placements import Asset, Placements

BEIJING = timezone(timedelta(hours=8))
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
    DRAW: "九宫格抽奖",
    PROOF: "播出截图",
    SHOT: "现场广告出镜",
}
SOURCE_ZH = {"obs": "OBS", "app": "应用", "operator": "运营员"}
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
    return datetime.fromtimestamp(ts, BEIJING).strftime(fmt)


def rel(ts: float, start: float) -> str:
    s = max(0.0, ts - start)
    return f"{int(s) // 60:02d}:{s % 60:04.1f}"


def fmt_num(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:g}" if abs(value - round(value)) > 1e-9 else str(int(round(value)))


def describe(e: StoredEvent, p: Placements) -> str:
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
    if e.kind == DRAW:
        return (
            f"{d.get('contestant', '')} 抽中第{int(d.get('cell', 0)) + 1}格 {d.get('prize', '')}"
            f"（{d.get('sponsor_name') or p.sponsor_name(str(d.get('sponsor', '')))}）"
        )
    if e.kind == SHOT:
        slot = p.one(e.subject)
        return f"{slot.label}（{p.sponsor_name(slot.sponsor)}）" if slot else e.subject
    return e.subject


def safe_name(text: str) -> str:
    return re.sub(r"[\\/:*?\"<>|\s]+", "_", text).strip("_") or "episode"


# ------------------------------------------------------------------------------------------- XLSX
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
    ws.freeze_panes = ws.cell(row=len(_facts(x, p)) + 4, column=1)
    used: set[str] = {"汇总", "播出记录", "九宫格抽奖", "爱心基金"}
    for s in x.sponsors:
        title = _sheet_title(s.name, used)
        sh = wb.create_sheet(title)
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
            sh.append(
                [m.slot_label, m.what, fmt_num(m.promised), fmt_num(m.delivered), m.unit, m.status, m.note]
            )
            _mark(sh, sh.max_row, m)
        sh.append([])
        sh.append(["未达标项目", len(s.shortfalls)])
        if s.shortfalls:
            sh.cell(row=sh.max_row, column=2).font = RED_FONT
        _widths(sh, [26, 26, 24, 10, 6, 8, 70])
    log = wb.create_sheet("播出记录")
    log.append(["北京时间", "节目内时间", "类型", "内容", "来源", "记录号"])
    _head(log, 1)
    for e in x.events:
        log.append(
            [
                beijing(e.ts),
                rel(e.ts, x.start),
                KIND_ZH.get(e.kind, e.kind),
                describe(e, p),
                SOURCE_ZH.get(e.source, e.source),
                e.id,
            ]
        )
    _widths(log, [12, 12, 14, 50, 10, 10])
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
    wb.save(path)
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
        ("记录来源", "、".join(src) or "—"),
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
CSS = """
@page { size: A4; margin: 14mm 12mm; }
* { box-sizing: border-box; }
body { font-family: "Noto Sans CJK SC", "Noto Sans SC", sans-serif; color: #1a1a1a; font-size: 10.5pt;
       margin: 0; }
h1 { font-size: 18pt; margin: 0 0 4mm; }
h2 { font-size: 14pt; margin: 0 0 3mm; }
h3 { font-size: 11.5pt; margin: 5mm 0 2mm; color: #1f3864; }
.page { page-break-after: always; }
.page:last-child { page-break-after: auto; }
.brand { display: flex; align-items: center; gap: 6mm; border-bottom: 2px solid #1f3864; padding-bottom: 3mm;
         margin-bottom: 3mm; }
.brand img { height: 22mm; }
.muted { color: #666; }
table { border-collapse: collapse; width: 100%; margin-bottom: 2mm; }
th { background: #1f3864; color: #fff; text-align: left; font-weight: 600; }
th, td { border: 1px solid #bfbfbf; padding: 1.2mm 1.6mm; vertical-align: top; }
td.num { text-align: right; white-space: nowrap; }
.metrics td:nth-last-child(2) { white-space: nowrap; }
tr.short td { background: #ffc7ce; color: #9c0006; font-weight: 600; }
td.ok { color: #006100; }
.facts td:first-child { width: 38mm; color: #444; }
.summary-short { color: #9c0006; font-weight: 700; }
.proofs { display: flex; flex-wrap: wrap; gap: 3mm; }
.proofs figure { margin: 0; width: 58mm; }
.proofs img { width: 58mm; border: 1px solid #999; }
.proofs figcaption { font-size: 8.5pt; color: #444; }
.flags { color: #8a5a00; }
.foot { margin-top: 4mm; font-size: 8.5pt; color: #666; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _logo_uri(asset: Asset | None) -> str:
    if asset is None or not asset.path.is_file():
        return ""
    mime = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp"}.get(
        asset.path.suffix.lower(), "image/png"
    )
    return _data_uri(asset.path.read_bytes(), mime)


def thumbnail(proof: Proof, width: int = 360) -> bytes:
    with Image.open(io.BytesIO(proof.jpeg)) as src:
        im = src.convert("RGB")
    if im.width > width:
        im = im.resize((width, max(1, round(im.height * width / im.width))))
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=80)
    return buf.getvalue()


def _metrics_table(metrics: Iterable[Metric], with_sponsor: dict[str, str] | None = None) -> str:
    head = (("赞助商",) if with_sponsor else ()) + METRIC_HEAD
    widths = ((12,) if with_sponsor else ()) + (19, 19, 8, 6, 5, 8, 35)
    cols = "".join(f"<col style='width:{w}%'>" for w in widths)
    rows = [
        f"<table class='metrics'><colgroup>{cols}</colgroup><thead><tr>"
        + "".join(f"<th>{_e(h)}</th>" for h in head)
        + "</tr></thead><tbody>"
    ]
    for m in metrics:
        cls = ' class="short"' if m.shortfall else ""
        status_cls = ' class="ok"' if m.promised is not None and not m.shortfall else ""
        cells = ([f"<td>{_e(with_sponsor[m.sponsor])}</td>"] if with_sponsor else []) + [
            f"<td>{_e(m.slot_label)}</td>",
            f"<td>{_e(m.what)}</td>",
            f'<td class="num">{_e(fmt_num(m.promised))}</td>',
            f'<td class="num">{_e(fmt_num(m.delivered))}</td>',
            f"<td>{_e(m.unit)}</td>",
            f"<td{status_cls}>{_e(m.status)}</td>",
            f"<td>{_e(m.note)}</td>",
        ]
        rows.append(f"<tr{cls}>" + "".join(cells) + "</tr>")
    rows.append("</tbody></table>")
    return "".join(rows)


def _sponsor_page(x: EpisodeExposure, p: Placements, s: SponsorExposure, proofs: dict[int, Proof]) -> str:
    sp = p.sponsors.get(s.sponsor)
    logo = _logo_uri(sp.logo if sp else None)
    out = ['<section class="page">', '<div class="brand">']
    if logo:
        out.append(f'<img src="{logo}" alt="{_e(s.name)}">')
    short = len(s.shortfalls)
    verdict = f'<span class="summary-short">{short} 项未达标</span>' if short else "全部承诺项目达标"
    out.append(
        f"<div><h2>{_e(s.name)} · 播出证明</h2><div class='muted'>{_e(s.full_name)}</div>"
        f"<div>《{_e(p.show)}》{_e(p.season)} {_e(x.episode)} · 播出日期 {_e(x.air_date or '—')} · "
        f"{verdict}</div></div></div>"
    )
    out.append(
        "<h3>购买的广告位</h3><table><thead><tr><th>广告位</th><th>合同期</th><th>价格</th>"
        "<th>每期承诺</th></tr></thead><tbody>"
    )
    for slot in s.slots:
        c = slot.contract
        label = slot.label if slot.kind != "credits" else f"片尾鸣谢（{slot.role}）"
        mins = minimums_zh(slot.minimums)
        out.append(
            f"<tr><td>{_e(label)}</td><td>{_e(f'{c.start} 至 {c.end}' if c else '（随主合同）')}</td>"
            f"<td>{_e(slot.price.label() if slot.price else '—')}</td><td>{_e(mins)}</td></tr>"
        )
    out.append("</tbody></table><h3>承诺与实际播出</h3>")
    out.append(_metrics_table(s.metrics))
    shots = [eid for eid in s.evidence if eid in proofs]
    if shots:
        by_id = {e.id: e for e in x.events}
        out.append("<h3>播出截图（OBS 节目输出）</h3><div class='proofs'>")
        for eid in shots[:9]:
            e = by_id.get(eid)
            cap = f"{beijing(e.ts)} · {KIND_ZH.get(e.kind, e.kind)} · {describe(e, p)}" if e else str(eid)
            out.append(
                f"<figure><img src='{_data_uri(thumbnail(proofs[eid]), 'image/jpeg')}' alt='proof {eid}'>"
                f"<figcaption>{_e(cap)}</figcaption></figure>"
            )
        out.append("</div>")
    else:
        out.append("<p class='muted'>本期没有 OBS 播出截图（未连接 OBS 时由应用记录播出时间）。</p>")
    out.append(_footer(x))
    out.append("</section>")
    return "".join(out)


def _footer(x: EpisodeExposure) -> str:
    src = "、".join(sorted({SOURCE_ZH.get(e.source, e.source) for e in x.events})) or "—"
    flags = f"<div class='flags'>提示：{_e('；'.join(x.flags))}</div>" if x.flags else ""
    return (
        f"<div class='foot'>{flags}播出时间均为北京时间，取自播出记录（来源：{_e(src)}）；"
        f"节目 {beijing(x.start, '%Y-%m-%d %H:%M:%S')} 至 {beijing(x.end, '%H:%M:%S')}。"
        f"“完整播出”指时长不短于购买时长 0.5 秒以上。</div>"
    )


def render_html(
    x: EpisodeExposure, p: Placements, proofs: dict[int, Proof] | None = None, only: str | None = None
) -> str:
    proofs = proofs or {}
    sponsors = [s for s in x.sponsors if only is None or s.sponsor == only]
    title = f"《{p.show}》{x.episode} 赞助商播出报告" + (
        f" · {sponsors[0].name}" if only and sponsors else ""
    )
    out = [
        "<!DOCTYPE html><html lang='zh-CN'><head><meta charset='utf-8'>",
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>",
    ]
    if only is None:
        out.append(f"<section class='page'><h1>{_e(title)}</h1><table class='facts'><tbody>")
        for k, v in _facts(x, p):
            out.append(f"<tr><td>{_e(k)}</td><td>{_e(v)}</td></tr>")
        out.append(
            "</tbody></table><h3>各赞助商</h3><table><thead><tr><th>赞助商</th><th>广告位</th>"
            "<th>承诺项目</th><th>未达标</th></tr></thead><tbody>"
        )
        for s in sponsors:
            promised = sum(1 for m in s.metrics if m.promised is not None)
            short = len(s.shortfalls)
            cls = " class='short'" if short else ""
            slots = "、".join(
                dict.fromkeys(sl.label if sl.kind != "credits" else "片尾鸣谢" for sl in s.slots)
            )
            out.append(
                f"<tr{cls}><td>{_e(s.name)}</td><td>{_e(slots)}</td><td class='num'>{promised}</td>"
                f"<td class='num'>{short}</td></tr>"
            )
        out.append("</tbody></table>")
        out.append("<h3>未达标项目</h3>")
        shortfalls = [m for s in sponsors for m in s.shortfalls]
        if shortfalls:
            out.append(_metrics_table(shortfalls, {s.sponsor: s.name for s in sponsors}))
        else:
            out.append("<p>本期所有承诺项目均已达标。</p>")
        out.append(
            "<h3>九宫格抽奖</h3><table><thead><tr><th>#</th><th>北京时间</th><th>选手</th><th>格子</th>"
            "<th>奖品</th><th>赞助商</th></tr></thead><tbody>"
        )
        for n, e in enumerate(x.draws, start=1):
            d = e.detail
            out.append(
                f"<tr><td>{n}</td><td>{beijing(e.ts)}</td><td>{_e(d.get('contestant', ''))}</td>"
                f"<td>第{int(d.get('cell', 0)) + 1}格</td><td>{_e(d.get('prize', ''))}</td>"
                f"<td>{_e(d.get('sponsor_name', ''))}</td></tr>"
            )
        out.append("</tbody></table>")
        out.append(
            f"<h3>临沂够级爱心基金</h3><p>本期奖金 {x.prize_total:,.2f} 元（{len(x.prizes)} 笔），"
            f"按 10% 计入爱心基金 <b>{x.charity:,.2f} 元</b>；本季累计奖金 {x.season_prize_total:,.2f} 元，"
            f"累计爱心基金 <b>{x.season_charity:,.2f} 元</b>。</p>"
        )
        out.append(_footer(x))
        out.append("</section>")
    for s in sponsors:
        out.append(_sponsor_page(x, p, s, proofs))
    out.append("</body></html>")
    return "".join(out)


def html_to_pdf(pages: list[tuple[str, Path]]) -> list[Path]:
    """Render HTML documents to A4 PDFs with one headless Chromium.

    Playwright's sync API refuses to run in a thread that already has an asyncio loop running (the
    console's, a test's browser session), so the rendering always happens on a worker thread of its own.
    """
    result: list[list[Path]] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(_html_to_pdf(pages))
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)

    worker = threading.Thread(target=work, name="report-pdf", daemon=True)
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return result[0]


def _html_to_pdf(pages: list[tuple[str, Path]]) -> list[Path]:
    from playwright.sync_api import sync_playwright

    done: list[Path] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            for text, out in pages:
                page.set_content(text, wait_until="load")
                out.parent.mkdir(parents=True, exist_ok=True)
                page.pdf(path=str(out), format="A4", print_background=True, prefer_css_page_size=True)
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
        html_path.write_text(text, encoding="utf-8")
        docs.append((text, out_dir / f"{stem}.pdf"))
    sponsor_htmls: dict[str, Path] = {}
    for s in x.sponsors:
        if sponsor is not None and s.sponsor != sponsor:
            continue
        text = render_html(x, p, proofs, only=s.sponsor)
        path = out_dir / "sponsors" / f"{safe_name(x.episode)}_{s.sponsor}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        sponsor_htmls[s.sponsor] = path
        docs.append((text, path.with_suffix(".pdf")))
    pdfs = html_to_pdf(docs) if pdf else []
    main_pdf = next((q for q in pdfs if q.parent == out_dir), None)
    sponsor_pdfs = {
        sid: h.with_suffix(".pdf") for sid, h in sponsor_htmls.items() if h.with_suffix(".pdf") in pdfs
    }
    return ReportFiles(xlsx_path, html_path, main_pdf, sponsor_pdfs, sponsor_htmls)
