"""What the bridge tells the operator: one :class:`BridgeStatus` object, replaced on every change.

``state`` is the coarse phase (the console's status-bar colour); ``reason`` says why, in words an
operator can act on, in Chinese and English: a wrong or missing password, nothing listening at the
address, a port that does not answer the handshake, OBS frozen, the link lost, provisioning under way.
The password never appears in it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

log = logging.getLogger("broadcast.obs.bridge")

# states
STOPPED = "stopped"
CONNECTING = "connecting"
PROVISIONING = "provisioning"
CONNECTED = "connected"
RECONNECTING = "reconnecting"
AUTH_FAILED = "auth_failed"

# reasons (a superset of broadcast.core.airlog.CAUSES' keys)
REASONS: dict[str, tuple[str, str]] = {
    "stopped": ("OBS 桥已停止", "OBS bridge stopped"),
    "connecting": ("正在连接 OBS…", "connecting to OBS…"),
    "provisioning": (
        "正在布置 OBS 场景与图形，画面尚未确认…",
        "provisioning OBS: scenes and graphics, not yet confirmed…",
    ),
    "on_air": ("OBS 已连接，节目画面已确认", "OBS connected, program confirmed"),
    "unreachable": (
        "OBS 未连接：地址上没有程序在监听（OBS 未运行、未开 WebSocket 服务器或端口不对），正在重试",
        "OBS not connected: nothing listening (OBS not running, websocket off or wrong port), retrying",
    ),
    "auth_failed": (
        "OBS 密码错误：请检查 OBS 的 WebSocket 密码设置",
        "OBS refused the password: check the settings",
    ),
    "no_password": (
        "OBS 要求密码，但没有设置（GOUJI_OBS_PASSWORD）",
        "OBS requires a password and none is set (GOUJI_OBS_PASSWORD)",
    ),
    "handshake": (
        "OBS 端口有响应但不握手（OBS 冻结或不是 obs-websocket），正在重试",
        "OBS port answers but no handshake (frozen, or not obs-websocket), retrying",
    ),
    "frozen": ("OBS 无响应（冻结），已断开，正在重试", "OBS stopped answering (frozen): dropped, retrying"),
    "lost": (
        "OBS 连接中断（OBS 退出或崩溃），正在重试",
        "connection to OBS lost (OBS quit or crashed), retrying",
    ),
    "provision_failed": ("OBS 场景布置失败", "provisioning OBS failed"),
}


@dataclass(frozen=True)
class BridgeStatus:
    state: str = STOPPED
    reason: str = "stopped"
    message_zh: str = REASONS["stopped"][0]
    message_en: str = REASONS["stopped"][1]
    detail: str = ""  # the technical line (address, OBS's code and comment); never the password
    since: float = 0.0  # epoch seconds this state began
    obs_version: str = ""
    browser_source: bool | None = None
    program_scene: str = ""
    film: str = ""
    synced_at: float = 0.0  # monotonic time of the last full re-sync after a (re)connect
    resync_seconds: float = 0.0  # that re-sync: socket open → program confirmed
    connects: int = 0
    down_since: float = 0.0  # epoch seconds OBS was last known alive before the current outage

    @property
    def connected(self) -> bool:
        return self.state == CONNECTED

    @property
    def line(self) -> str:
        """One line for a terminal or a status bar."""
        extra = f"（{self.detail}）" if self.detail and self.state != CONNECTED else ""
        return f"{self.message_zh} / {self.message_en}{extra}"


def reason_text(reason: str) -> tuple[str, str]:
    return REASONS.get(reason, (reason, reason))


class StatusBoard:
    """The bridge's current :class:`BridgeStatus` and the listeners told of each change (called on the
    worker thread; a Qt console re-emits them as signals)."""

    def __init__(self) -> None:
        self.status = BridgeStatus()
        self._listeners: list[Callable[[BridgeStatus], None]] = []

    def add_listener(self, fn: Callable[[BridgeStatus], None]) -> Callable[[], None]:
        self._listeners.append(fn)
        return lambda: self._listeners.remove(fn) if fn in self._listeners else None

    def set(self, state: str, reason: str, detail: str = "", **kw: Any) -> None:
        old = self.status
        zh, en = reason_text(reason)
        new = replace(old, state=state, reason=reason, message_zh=zh, message_en=en, detail=detail, **kw)
        if state != old.state:
            new = replace(new, since=time.time())
        if state != CONNECTED and state != old.state:
            new = replace(new, synced_at=0.0)
        if new == old:
            return
        self.status = new
        if (state, reason) != (old.state, old.reason):
            log.info("OBS bridge: %s %s", zh, detail)
        for fn in list(self._listeners):
            try:
                fn(new)
            except Exception:  # noqa: BLE001
                log.exception("OBS status listener failed")
