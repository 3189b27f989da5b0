"""Typed errors of the OBS connection. Each keeps what OBS said: its status code and comment."""

from __future__ import annotations

from broadcast.errors import GoujiError


class ObsError(GoujiError):
    """Anything that went wrong talking to OBS: ``ObsError(rule, zh, en, cause=)`` — each subclass
    fixes its ``rule`` and a default Chinese line for the operator, so a call site gives what it knows
    (``ObsNotConnected(en="not provisioned")``). ``cause`` is the reason code the bridge shows and the
    as-run records (``broadcast.core.airlog.CAUSES``). ``str()`` is the English line (logs)."""

    rule = "obs"
    zh = "OBS 出错"
    cause: str = "lost"

    def __init__(self, rule: str = "", zh: str = "", en: str = "", *, cause: str = "") -> None:
        if cause:
            self.cause = cause
        super().__init__(rule, zh, en)

    def text(self) -> str:
        return self.en


class ObsNotConnected(ObsError):
    rule = "obs.not_connected"
    zh = "OBS 未连接"


class ObsConnectError(ObsError):
    """The connection could not be opened (nothing listening, handshake timed out, bad answer)."""

    rule = "obs.connect"
    zh = "无法连接 OBS"
    cause = "unreachable"


class ObsUnreachable(ObsConnectError):
    """Nothing listens at the address (OBS not running, websocket server off, wrong port)."""

    rule = "obs.unreachable"
    cause = "unreachable"


class ObsHandshakeTimeout(ObsConnectError):
    """The port answered but obs-websocket's Hello/Identify did not come in time (OBS frozen or busy)."""

    rule = "obs.handshake"
    cause = "handshake"


class ObsAuthError(ObsConnectError):
    """OBS refused the password: websocket close code 4009 "Authentication failed."."""

    rule = "obs.auth"
    cause = "auth_failed"

    def __init__(self, code: int, comment: str, *, zh: str = "") -> None:
        self.code = code
        self.comment = comment
        super().__init__(
            "obs.auth",
            zh or f"OBS 密码错误（{code}：{comment}）",
            f"OBS refused the password (close code {code}: {comment})",
        )


class ObsClosed(ObsConnectError):
    """OBS closed the connection with a websocket close code (other than auth failure)."""

    rule = "obs.closed"

    def __init__(self, code: int, comment: str) -> None:
        self.code = code
        self.comment = comment
        super().__init__(
            "obs.closed",
            f"OBS 关闭了连接（{code}：{comment}）",
            f"OBS closed the connection (code {code}: {comment})",
        )


class ObsConnectionLost(ObsError):
    """The connection dropped while a request was waiting for its answer."""

    rule = "obs.lost"
    zh = "OBS 连接中断"


class ObsTimeout(ObsError):
    """No answer within the configured time (OBS frozen, overloaded, or the link is gone)."""

    rule = "obs.timeout"
    zh = "OBS 无响应（超时）"
    cause = "frozen"

    def __init__(self, request_type: str, timeout: float) -> None:
        self.request_type = request_type
        self.timeout = timeout
        super().__init__(
            "obs.timeout",
            f"OBS 在 {timeout:.1f} 秒内没有回应 {request_type}（冻结、过载或连接已断）",
            f"no answer from OBS to {request_type} within {timeout:.1f}s",
        )


class ObsRequestError(ObsError):
    """OBS answered a request with a failure status: its ``code`` and ``comment`` are kept."""

    rule = "obs.request"

    def __init__(self, request_type: str, code: int, comment: str) -> None:
        self.request_type = request_type
        self.code = code
        self.comment = comment
        super().__init__(
            "obs.request",
            f"OBS 拒绝了 {request_type}：{code} {comment}".strip(),
            f"OBS refused {request_type}: code {code}" + (f" ({comment})" if comment else ""),
        )


# obs-websocket v5 RequestStatus codes the bridge relies on
NOT_FOUND = 600
ALREADY_EXISTS = 601
UNKNOWN_REQUEST = 204
OUTPUT_RUNNING = 500
