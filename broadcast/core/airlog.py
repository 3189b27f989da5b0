"""The as-run feed's interface, agreed between the OBS bridge (which sees what is really on program),
the application (operator marks, episode start and end) and the sponsor module (which stores it in
SQLite, chains its rows and reports on it). Implementations live in ``broadcast.sponsors.asrun``.

Only what OBS confirmed is evidence of air (``source`` ``obs``; ``echo`` for a browser-source page's
own report, sent from inside OBS, that it painted a change). The application's intention (what the
show state asks for) is never recorded as air. While OBS cannot be seen (``obs_down`` … ``obs_up``),
nothing is on air as far as the as-run log knows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

# kinds of air events
PROGRAM_SCENE = "program_scene"  # subject: scene name now on program
GRAPHIC_ON = "graphic_on"  # subject: graphic id (scoreboard, corner_bug, bumper …); detail.item
GRAPHIC_OFF = "graphic_off"
FILM_START = "film_start"  # subject: film id (media input name); detail.sponsor
FILM_END = "film_end"
MENTION = "mention"  # 口播: subject sponsor id, marked by the operator
MENTION_RETRACT = "mention_retract"  # a 口播 keyed by mistake, taken back: subject sponsor id,
#   detail {of_seq, of_ts: the mention's journal seq and time, reason}; reports do not count that mention
DRAW = "draw"  # 九宫格 draw: detail {contestant, cell, prize, sponsor}
PROOF = "proof"  # a proof-of-air screenshot: detail.sha256 of the JPEG, detail.of = the row it proves
OBS_DOWN = "obs_down"  # OBS cannot be seen from here on: subject = cause (CAUSES), detail.since
OBS_UP = "obs_up"  # OBS confirmed what it shows again: evidence counts from this row on
EPISODE_START = "episode_start"  # subject: episode id
EPISODE_END = "episode_end"

KINDS = (
    PROGRAM_SCENE,
    GRAPHIC_ON,
    GRAPHIC_OFF,
    FILM_START,
    FILM_END,
    MENTION,
    MENTION_RETRACT,
    DRAW,
    PROOF,
    OBS_DOWN,
    OBS_UP,
    EPISODE_START,
    EPISODE_END,
)

# sources whose rows are evidence of what aired
EVIDENCE_SOURCES = frozenset({"obs", "echo"})

# why OBS could not be seen (OBS_DOWN's subject), for the report and the operator
CAUSES: dict[str, tuple[str, str]] = {
    "unreachable": (
        "OBS 未运行或端口不对（没有程序在监听）",
        "nothing listening (OBS not running or wrong port)",
    ),
    "auth_failed": ("OBS 密码错误", "OBS refused the password"),
    "handshake": ("OBS 端口有响应但不握手", "OBS port open but no obs-websocket handshake"),
    "lost": ("OBS 连接中断（OBS 退出或崩溃）", "connection lost (OBS quit or crashed)"),
    "frozen": ("OBS 无响应（冻结）", "OBS stopped answering (frozen)"),
    "provisioning": ("正在布置 OBS 场景", "provisioning OBS"),
    "stopped": ("演播室程序已停止", "the studio application stopped"),
    "restarted": (
        "演播室程序意外退出后重启（其间没有看到 OBS 画面）",
        "the studio restarted after it was killed or crashed (OBS not seen in between)",
    ),
    "not_started": ("尚未看到 OBS 画面（未连接或未启动）", "OBS not seen yet (not connected or not started)"),
}


@dataclass(frozen=True)
class AirEvent:
    ts: float  # seconds since the epoch; from OBS's event when it is the source
    kind: str  # one of KINDS
    subject: str  # scene / graphic / film / sponsor id
    source: str = "app"  # "obs" (confirmed by OBS), "echo" (page inside OBS), "operator", "app", "rehearsal"
    episode: str = ""  # episode id the event belongs to ("" = current)
    detail: dict[str, Any] = field(default_factory=dict)


class AirLog(Protocol):
    def record(self, event: AirEvent) -> int:
        """Store one event; return its id."""

    def attach_proof(
        self,
        event_id: int | None,
        jpeg: bytes,
        width: int,
        height: int,
        ts: float = 0.0,
        scene: str = "",
        *,
        failed: str = "",
        check: dict[str, Any] | None = None,
        episode: str = "",
    ) -> int:
        """Store a proof-of-air screenshot (JPEG bytes) of event ``event_id`` (None: taken on demand): a
        row of its own (kind ``proof``) whose detail carries the JPEG's SHA-256, so the picture is part
        of the chain. ``failed`` (why): the picture does not show what it was to prove — a row of kind
        ``proof_failed``, never counted as proof; ``check``: how it was checked; ``episode``: an
        on-demand proof's (a row's proof goes with the row). Returns the row's id."""
