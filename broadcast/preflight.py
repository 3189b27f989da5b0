"""The pre-show check (开录前检查): before recording starts, is everything the show needs in place?

Each check gives :class:`Line` s — green (``ok``), amber (``warn``) or red (``fail``), in Chinese and
English, each red one saying what to do. The checks reuse what already knows the answer and repeat none
of it:

* **OBS** (:func:`check_obs`): connected, and holding the show's scenes and sources as provisioning makes
  them (:func:`broadcast.obs.layout.build_layout` is what the bridge provisions; the scene items are
  compared by :func:`broadcast.obs.sync.plan_items`, the same comparison provisioning runs) — names,
  source kinds, every scene's items, each film source's file;
* **the rundown's assets and the contracts** (:func:`check_placements`): the placements file loaded as
  the studio loads it (:func:`broadcast.sponsors.placements.load_placements` with the air date): every
  logo and film present, decodable (ffprobe) and of its slot's length, the placements valid and every
  contract covering the air date; each problem one red line at ``file:line`` with its fix;
* **the episode, teams and seats** (:func:`check_setup`): from the show state;
* **disk space** (:func:`check_disk`): what a whole show writes into the project database (the journal,
  the as-run log and its proof-of-air pictures, :func:`estimate`) against the free space of the disk
  holding it.

:func:`run` puts them together. No Qt here: the console's dialog (``broadcast/console/preflight.py``) and
the command line (``python -m broadcast preflight``, ``broadcast/cli/preflight.py``) show the same lines.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from broadcast.errors import plural

if TYPE_CHECKING:
    from broadcast.obs.provision import Requester
    from broadcast.sponsors.placements.model import Issue

OK = "ok"
WARN = "warn"
FAIL = "fail"
MARK = {OK: "✔", WARN: "!", FAIL: "✘"}

# -- what a whole show writes (the disk check's budget) -------------------------------------------------
SHOW_SECONDS = 2 * 3600  # the longest show budgeted: two hours of recording
ACTIONS_PER_SHOW = 2_000  # 4 games × ~250 decisions (205 is a long game) + ~1,000 on-air operations
ASRUN_ROWS_PER_SHOW = 2_000  # every graphic/film on and off, OBS up/down, marks (a rundown alone: ~100)
JOURNAL_ROW_BYTES = 256  # a journaled action (type, payload JSON, hash), when the database has none yet
ASRUN_ROW_BYTES = 256  # an as-run row (kind, subject, detail JSON, chain hashes), likewise
# a proof-of-air JPEG 640 px wide at quality 80: the drawn graphics measured 4–23 KB, a photo-like
# picture (a camera on the table) 34 KB — budgeted at 40 KiB, scaled by the area of the proof's width
PROOF_BYTES_640 = 40 * 1024
SAFETY = 2.0  # SQLite's write-ahead log holds a second copy of the changed pages until a checkpoint

MAX_NAMES = 6  # a line names at most this many missing things, then "等 N 个"


@dataclass(frozen=True)
class Line:
    """One line of the check: ``id`` groups lines (``obs``, ``assets``, ``contracts``, ``placements``,
    ``episode``, ``teams``, ``seats``, ``disk``)."""

    id: str
    status: str  # OK | WARN | FAIL
    zh: str
    en: str
    fix_zh: str = ""
    fix_en: str = ""
    where: str = ""  # the file (file:line) it is about

    @property
    def red(self) -> bool:
        return self.status == FAIL

    def text(self, lang: str = "zh_CN") -> str:
        """The line in ``lang`` ("en" or Chinese), with where and what to do."""
        en = lang == "en"
        msg = self.en if en else self.zh
        fix = self.fix_en if en else self.fix_zh
        where = f"{self.where}: " if self.where else ""
        if not fix:
            return where + msg
        return f"{where}{msg} — {fix}" if en else f"{where}{msg}——{fix}"

    def to_json(self) -> dict[str, str]:
        return asdict(self)


def red(lines: Iterable[Line]) -> list[Line]:
    return [ln for ln in lines if ln.red]


def _names(items: Sequence[str]) -> tuple[str, str]:
    shown = list(items[:MAX_NAMES])
    more = len(items) - len(shown)
    zh = "、".join(shown) + (f" 等 {len(items)} 个" if more else "")
    en = ", ".join(shown) + (f" and {more} more" if more else "")
    return zh, en


# -- OBS ----------------------------------------------------------------------------------------------
PROVISION_ZH = "运行 python -m broadcast obs provision，或让导播台重新连接 OBS（连接时自动布置）"
PROVISION_EN = "run python -m broadcast obs provision, or let the console reconnect to OBS (it provisions)"


def obs_down(reason_zh: str, reason_en: str, where: str = "") -> Line:
    return Line(
        "obs",
        FAIL,
        f"OBS 未连接：{reason_zh}",
        f"OBS not connected: {reason_en}",
        "启动 OBS，在 工具 → WebSocket 服务器设置 里开启服务器并核对端口和密码"
        "（GOUJI_OBS_PORT、GOUJI_OBS_PASSWORD 或 --obs-settings）",
        "start OBS, enable Tools → WebSocket Server Settings and check its port and password "
        "(GOUJI_OBS_PORT, GOUJI_OBS_PASSWORD or --obs-settings)",
        where,
    )


def check_obs(obs: Requester, lay: Any, where: str = "") -> list[Line]:
    """OBS holds the layout ``lay`` (a :class:`broadcast.obs.spec.Layout`): its scenes, its sources (of
    their kind), every scene's items, each film source showing its file. Read-only: one batch to list
    scenes and sources, one for the scenes' items."""
    from broadcast.obs import spec as P
    from broadcast.obs import sync as S
    from broadcast.obs.errors import ObsError

    try:
        got: list[dict[str, Any]] = []
        for r in obs.pipeline([("GetSceneList", {}), ("GetInputList", {})]):
            if isinstance(r, ObsError):
                raise r
            got.append(r)
        scene_list, input_list = got
        scenes = {str(s["sceneName"]) for s in scene_list.get("scenes", [])}
        inputs = {str(i["inputName"]): str(i["inputKind"]) for i in input_list.get("inputs", [])}
        order = [s for s in lay.scene_order() if s in scenes]
        films = [n for n, sp in lay.inputs.items() if sp.kind == P.MEDIA and n in inputs]
        answers = obs.pipeline(
            [("GetSceneItemList", {"sceneName": s}) for s in order]
            + [("GetInputSettings", {"inputName": n}) for n in films]
        )
    except ObsError as exc:
        return [obs_down(exc.zh, exc.en, where)]
    listings = {
        s: S.scene_items(a) for s, a in zip(order, answers, strict=False) if not isinstance(a, ObsError)
    }
    missing_scenes = [s for s in lay.scene_order() if s not in scenes]
    missing_inputs = [n for n in lay.inputs if n not in inputs]
    wrong_kind = [n for n, sp in lay.inputs.items() if n in inputs and inputs[n] != sp.kind]
    plan = S.plan_items(lay, listings)
    missing_items = [f"{sc}/{it.source}" for sc, it in plan.create if sc in scenes and it.source in inputs]
    wrong_film: list[str] = []
    for n, a in zip(films, answers[len(order) :], strict=False):
        have = "" if isinstance(a, ObsError) else str((a.get("inputSettings") or {}).get("local_file", ""))
        if Path(have) != Path(str(lay.inputs[n].settings.get("local_file", ""))):
            wrong_film.append(n)
    out: list[Line] = []
    for what_zh, what_en, names in (
        ("缺少节目场景", "show scenes missing", missing_scenes),
        ("缺少源", "sources missing", missing_inputs),
        ("源的类型不对", "sources of another kind", wrong_kind),
        ("场景里缺少", "scene items missing", missing_items),
        ("影片源指向别的文件", "film sources showing another file", wrong_film),
    ):
        if names:
            zh, en = _names(names)
            out.append(
                Line(
                    "obs",
                    FAIL,
                    f"OBS {what_zh}：{zh}",
                    f"OBS: {what_en}: {en}",
                    PROVISION_ZH,
                    PROVISION_EN,
                    where,
                )
            )
    if not out:
        mode_zh = "网页图形" if lay.browser else "OBS 自带源"
        mode_en = "browser source" if lay.browser else "native sources"
        out.append(
            Line(
                "obs",
                OK,
                f"OBS 已连接，节目场景与源齐全（{len(lay.scenes)} 个场景、{len(lay.inputs)} 个源，"
                f"{mode_zh}）",
                f"OBS connected with the show's scenes and sources ({len(lay.scenes)} scenes, "
                f"{len(lay.inputs)} sources, {mode_en})",
                where=where,
            )
        )
    return out


# -- the placements: the rundown's assets, the contracts ---------------------------------------------
def _issue_line(ident: str, status: str, i: Issue) -> Line:
    """A placements issue (``broadcast.sponsors.placements``) as a line of the check, at its file:line."""
    return Line(
        ident, status, i.message, i.message_en or i.message, i.fix, i.fix_en or i.fix, f"{i.file}:{i.line}"
    )


def check_placements(
    file: str | Path | None, air_date: date | None, episode: str = ""
) -> tuple[list[Line], Any]:
    """Load the placements as the studio does, with the air date; returns the lines and the
    :class:`~broadcast.sponsors.placements.Placements` (None when they cannot be used)."""
    from broadcast.sponsors.placements import PlacementError, iter_assets, load_placements
    from broadcast.sponsors.rundown import build_rundown

    if not file:
        return [
            Line(
                "placements",
                FAIL,
                "没有赞助排期文件：节目流程、标版和宣传片都无从检查",
                "no placements file: the rundown, its bumpers and films cannot be checked",
                "用 --placements 给出排期文件（制片工作台可以新建）",
                "give the placements with --placements (the producer's workspace makes one)",
            )
        ], None
    out: list[Line] = []
    if air_date is None:
        out.append(
            Line(
                "contracts",
                FAIL,
                "不知道本期播出日期：合同是否覆盖本期无法检查",
                "the air date is not known: the contracts cannot be checked against it",
                "用 --air-date YYYY-MM-DD 给出，或在制片工作台的赛季页填写本期的播出日期",
                "give --air-date YYYY-MM-DD, or fill in the episode's air date in the producer's season tab",
            )
        )
    try:
        p = load_placements(file, air_date=air_date)
    except PlacementError as exc:
        for i in exc.issues:
            if i.level != "error":
                continue
            ident = {"asset": "assets", "contract": "contracts"}.get(i.topic, "placements")
            out.append(_issue_line(ident, FAIL, i))
        return out, None
    for i in p.warnings:
        if i.topic or "--air-date" not in i.fix:  # the missing air date is said above, once
            out.append(_issue_line("placements", WARN, i))
    rundown = build_rundown(p, episode=episode)
    films = sorted({c.film for c in rundown.cues if c.film})
    assets = list(iter_assets(p))
    logos = sum(1 for _w, a in assets if a.kind == "image")
    out.insert(
        0,
        Line(
            "assets",
            OK,
            f"节目流程的素材齐全：{len(films)} 条宣传片、{logos} 个标志，都能解码，长度与广告位相符",
            f"the rundown's assets are all there: {len(films)} films and {logos} logos, each decodable "
            "and of its slot's length",
            where=str(file),
        ),
    )
    if air_date is not None:
        contracts = sum(1 for s in p.slots if s.contract is not None)
        out.insert(
            1,
            Line(
                "contracts",
                OK,
                f"排期有效，{contracts} 份合同都覆盖播出日期 {air_date.isoformat()}",
                "the placements are valid and "
                + plural(contracts, "the contract covers", f"all {contracts} contracts cover")
                + f" the air date {air_date.isoformat()}",
                where=str(file),
            ),
        )
    return out, p


# -- the episode, teams and seats --------------------------------------------------------------------
def check_setup(state: Mapping[str, Any]) -> list[Line]:
    """The episode named, both teams named, six seats with players (not the table's placeholders)."""
    from engine.words import entered_name

    out: list[Line] = []
    show = state.get("show", {})
    episode = str(show.get("episode") or "")
    new_zh, new_en = (
        "比赛 → 新比赛（Ctrl+N）：从赛季选期数、队伍和选手",
        "Match → New match (Ctrl+N): the episode, teams and players from the season",
    )
    if episode:
        rnd = str(show.get("round") or "")
        out.append(
            Line(
                "episode",
                OK,
                f"本期：{episode}" + (f" · {rnd}" if rnd else ""),
                f"episode: {episode}" + (f" · {rnd}" if rnd else ""),
            )
        )
    else:
        out.append(Line("episode", FAIL, "没有设定期数", "no episode is set", new_zh, new_en))
    table = state.get("table", {})
    teams = table.get("teams", {})
    unnamed = [side for side in ("odd", "even") if not str(teams.get(side, {}).get("name") or "")]
    if unnamed:
        zh = "、".join({"odd": "单号队（1·3·5号）", "even": "双号队（2·4·6号）"}[s] for s in unnamed)
        en = " and ".join(
            {"odd": "the odd team (seats 1·3·5)", "even": "the even team (seats 2·4·6)"}[s] for s in unnamed
        )
        out.append(Line("teams", FAIL, f"{zh}没有队名", f"{en}: no team name", new_zh, new_en))
    else:
        odd, even = str(teams["odd"]["name"]), str(teams["even"]["name"])
        out.append(Line("teams", OK, f"两队：{odd} 对 {even}", f"teams: {odd} v {even}"))
    # no name, or the placeholder "N号位" older matches stored for one, is nobody
    seats = {
        int(s["seat"]): entered_name(int(s["seat"]), str(s.get("name") or "")) for s in table.get("seats", [])
    }
    empty = [n for n in range(1, 7) if not seats.get(n)]
    if empty:
        which = "、".join(f"{n}号" for n in empty)
        out.append(
            Line(
                "seats",
                FAIL,
                f"座位 {which} 没有选手",
                f"no player in seat {', '.join(map(str, empty))}",
                new_zh,
                new_en,
            )
        )
    else:
        out.append(
            Line(
                "seats",
                OK,
                "六个座位都有选手：" + "、".join(seats[n] for n in range(1, 7)),
                "six players seated: " + ", ".join(seats[n] for n in range(1, 7)),
            )
        )
    if state.get("match", {}).get("season") is None and not empty:
        out.append(
            Line(
                "seats",
                WARN,
                "这场比赛没有关联赛季：各局不会存入赛季，英雄榜不更新",
                "this match is not linked to the season: its games will not be saved to it, nor the "
                "leaderboard updated",
                new_zh,
                new_en,
            )
        )
    return out


# -- disk space --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    """Bytes a whole show writes into the project database."""

    journal: int
    asrun: int
    proofs: int
    proof_count: int

    @property
    def total(self) -> int:
        return self.journal + self.asrun + self.proofs

    @property
    def needed(self) -> int:
        """What must be free: the total with SQLite's write-ahead log's second copy (:data:`SAFETY`)."""
        return int(self.total * SAFETY)


def _measured(db: Path | None) -> tuple[float, float, float, int]:
    """Average bytes of a journal row, an as-run row and a proof picture, and the state's size, as this
    database holds them (0 where it holds none or cannot be read now)."""
    if db is None or not db.is_file():
        return 0.0, 0.0, 0.0, 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.5)
    except sqlite3.Error:
        return 0.0, 0.0, 0.0, 0
    out: list[float] = []
    try:
        for sql in (
            "SELECT avg(length(type) + length(payload) + length(coalesce(hash, '')) + 32) FROM "
            "(SELECT * FROM journal ORDER BY seq DESC LIMIT 2000)",
            "SELECT avg(length(kind) + length(subject) + length(source) + length(episode) + length(detail) "
            "+ length(hash) + length(prev_hash) + 32) FROM "
            "(SELECT * FROM asrun_events ORDER BY id DESC LIMIT 2000)",
            "SELECT avg(length(jpeg)) FROM (SELECT jpeg FROM asrun_proofs ORDER BY event_id DESC LIMIT 200)",
            "SELECT length(state) FROM journal_checkpoints ORDER BY seq DESC LIMIT 1",
        ):
            try:
                row = conn.execute(sql).fetchone()
            except sqlite3.Error:  # a table not there yet, a lock: the budget's figure
                row = None
            out.append(float(row[0]) if row and row[0] is not None else 0.0)
    finally:
        conn.close()
    return out[0], out[1], out[2], int(out[3])


def estimate(db: Path | None, *, films: int = 0, proof_width: int = 640, state_bytes: int = 0) -> Estimate:
    """A whole show's writes: :data:`ACTIONS_PER_SHOW` journal rows and the journal's checkpoints (the
    whole state, kept three at a time), :data:`ASRUN_ROWS_PER_SHOW` as-run rows, and the proof pictures —
    at most one per sponsor graphic every ``PROOF_EVERY`` seconds of :data:`SHOW_SECONDS`, one per film
    cue, each taken up to ``PROOF_ATTEMPTS`` times — at the sizes this database shows (else the
    budget's)."""
    from broadcast.core.journal import KEEP_CHECKPOINTS
    from broadcast.obs.layout import SPONSOR_GRAPHICS
    from broadcast.obs.proofs import PROOF_ATTEMPTS, PROOF_EVERY

    row, asrun_row, proof, state_size = _measured(db)
    state_size = max(state_size, state_bytes)
    journal = ACTIONS_PER_SHOW * max(row, JOURNAL_ROW_BYTES) + (KEEP_CHECKPOINTS + 1) * state_size
    asrun = ASRUN_ROWS_PER_SHOW * max(asrun_row, ASRUN_ROW_BYTES)
    count = PROOF_ATTEMPTS * (len(SPONSOR_GRAPHICS) * int(SHOW_SECONDS // PROOF_EVERY) + films)
    per_proof = max(proof, PROOF_BYTES_640 * (proof_width / 640) ** 2)
    return Estimate(int(journal), int(asrun), int(count * per_proof), count)


def human(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if abs(n) < 1024 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"  # pragma: no cover


def check_disk(db: Path, est: Estimate, *, usage: Callable[[str], Any] | None = None) -> list[Line]:
    """The disk holding the project database (its journal, as-run log and proof pictures) has room for
    ``est``: one line, green or red with the figures."""
    usage = usage or shutil.disk_usage
    folder = db.resolve().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        free = int(usage(str(folder)).free)
    except OSError as exc:
        return [
            Line(
                "disk",
                FAIL,
                f"无法读取磁盘剩余空间（{exc.strerror or exc}）",
                f"cannot read the free space ({exc.strerror or exc})",
                "检查项目数据库所在的文件夹",
                "check the project database's folder",
                str(folder),
            )
        ]
    parts_zh = (
        f"日志 {human(est.journal)}、播出记录 {human(est.asrun)}、存证截图 {est.proof_count} 张 "
        f"{human(est.proofs)}"
    )
    parts_en = (
        f"journal {human(est.journal)}, as-run {human(est.asrun)}, {est.proof_count} proof pictures "
        f"{human(est.proofs)}"
    )
    if free >= est.needed:
        return [
            Line(
                "disk",
                OK,
                f"磁盘空间足够：剩余 {human(free)}，整期节目最多写 {human(est.total)}（{parts_zh}）",
                f"disk space enough: {human(free)} free, a whole show writes at most {human(est.total)} "
                f"({parts_en})",
                where=str(folder),
            )
        ]
    return [
        Line(
            "disk",
            FAIL,
            f"磁盘空间不够：剩余 {human(free)}，整期节目需要 {human(est.needed)}"
            f"（{parts_zh}，含预写日志的余量）",
            f"not enough disk space: {human(free)} free, a whole show needs {human(est.needed)} "
            f"({parts_en}, with the write-ahead log's room)",
            f"腾出至少 {human(est.needed - free)}，或把项目数据库放到更大的磁盘（--db）",
            f"free at least {human(est.needed - free)}, or keep the project database on a bigger disk (--db)",
            str(folder),
        )
    ]


# -- all of it ---------------------------------------------------------------------------------------
def air_date_of(state: Mapping[str, Any], given: str | None = None) -> date | None:
    """The episode's air date: given, else the show's, else the one the placements were loaded for."""
    for text in (
        given,
        state.get("show", {}).get("air_date"),
        state.get("sponsors", {}).get("source", {}).get("air_date"),
    ):
        if text:
            try:
                return date.fromisoformat(str(text))
            except ValueError:
                continue
    return None


def season_air_date(db: Path, state: Mapping[str, Any]) -> date | None:
    """The air date the project database's season gives the match's episode (read-only; None when it
    gives none)."""
    import re

    link = state.get("match", {}).get("season") or {}
    m = re.fullmatch(r"第(\d+)期", str(link.get("episode") or state.get("show", {}).get("episode") or ""))
    if not link or m is None:
        return None
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.5)
        try:
            row = conn.execute(
                "SELECT air_date FROM season_episodes WHERE season_id=? AND number=?",
                (int(link["season_id"]), int(m.group(1))),
            ).fetchone()
        finally:
            conn.close()
        return date.fromisoformat(str(row[0])) if row and row[0] else None
    except (sqlite3.Error, ValueError, KeyError):
        return None


def run(
    state: Mapping[str, Any],
    *,
    db: Path,
    placements: str | Path | None,
    air_date: date | None,
    obs: Callable[[], list[Line]] | None,
    proof_width: int = 640,
    usage: Callable[[str], Any] | None = None,
) -> list[Line]:
    """Every check, in the order an operator reads them: OBS, the rundown's assets and contracts, the
    episode and table, the disk. ``obs`` runs the OBS check (None: OBS was switched off — a red line)."""
    import json

    out: list[Line] = []
    if obs is None:
        out.append(obs_down("没有启用（--no-obs）", "switched off (--no-obs)"))
    else:
        out.extend(obs())
    episode = str(state.get("show", {}).get("episode") or "")
    lines, p = check_placements(placements, air_date, episode)
    out.extend(lines)
    out.extend(check_setup(state))
    films = len(p.films) if p is not None else 0
    state_bytes = len(json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode())
    out.extend(
        check_disk(
            db, estimate(db, films=films, proof_width=proof_width, state_bytes=state_bytes), usage=usage
        )
    )
    return out


def summary(lines: Sequence[Line]) -> tuple[str, str]:
    n = len(red(lines))
    if not n:
        return "开录前检查全部通过", "pre-show check: all green"
    return f"开录前检查：{n} 项未通过", f"pre-show check: {n} red"
