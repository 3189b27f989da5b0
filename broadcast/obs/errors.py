"""Typed errors of the OBS connection. Each keeps what OBS said: its status code and comment."""

from __future__ import annotations


class ObsError(Exception):
    """Anything that went wrong talking to OBS. ``message_zh`` is for the operator; ``cause`` is the
    reason code the bridge shows and the as-run records (``broadcast.core.airlog.CAUSES``)."""

    message_zh: str = "OBS 出错"
    cause: str = "lost"

    def __init__(self, message: str, *, message_zh: str = "", cause: str = "") -> None:
        super().__init__(message)
        if message_zh:
            self.message_zh = message_zh
        if cause:
            self.cause = cause


class ObsNotConnected(ObsError):
    message_zh = "OBS 未连接"


class ObsConnectError(ObsError):
    """The connection could not be opened (nothing listening, handshake timed out, bad answer)."""

    message_zh = "无法连接 OBS"
    cause = "unreachable"


class ObsUnreachable(ObsConnectError):
    """Nothing listens at the address (OBS not running, websocket server off, wrong port)."""

    cause = "unreachable"


class ObsHandshakeTimeout(ObsConnectError):
    """The port answered but obs-websocket's Hello/Identify did not come in time (OBS frozen or busy)."""

    cause = "handshake"


class ObsAuthError(ObsConnectError):
    """OBS refused the password: websocket close code 4009 "Authentication failed."."""

    cause = "auth_failed"

    def __init__(self, code: int, comment: str, *, message_zh: str = "") -> None:
        super().__init__(
            f"OBS refused the password (close code {code}: {comment})",
            message_zh=message_zh or f"OBS 密码错误（{code}：{comment}）",
        )
        self.code = code
        self.comment = comment


class ObsClosed(ObsConnectError):
    """OBS closed the connection with a websocket close code (other than auth failure)."""

    def __init__(self, code: int, comment: str) -> None:
        super().__init__(
            f"OBS closed the connection (code {code}: {comment})",
            message_zh=f"OBS 关闭了连接（{code}：{comment}）",
        )
        self.code = code
        self.comment = comment


class ObsConnectionLost(ObsError):
    """The connection dropped while a request was waiting for its answer."""

    message_zh = "OBS 连接中断"


class ObsTimeout(ObsError):
    """No answer within the configured time (OBS frozen, overloaded, or the link is gone)."""

    message_zh = "OBS 无响应（超时）"
    cause = "frozen"

    def __init__(self, request_type: str, timeout: float) -> None:
        super().__init__(f"no answer from OBS to {request_type} within {timeout:.1f}s")
        self.request_type = request_type
        self.timeout = timeout


class ObsRequestError(ObsError):
    """OBS answered a request with a failure status: its ``code`` and ``comment`` are kept."""

    def __init__(self, request_type: str, code: int, comment: str) -> None:
        super().__init__(
            f"OBS refused {request_type}: code {code}" + (f" ({comment})" if comment else ""),
            message_zh=f"OBS 拒绝了 {request_type}：{code} {comment}".strip(),
        )
        self.request_type = request_type
        self.code = code
        self.comment = comment


# obs-websocket v5 RequestStatus codes the bridge relies on
NOT_FOUND = 600
ALREADY_EXISTS = 601
UNKNOWN_REQUEST = 204
OUTPUT_RUNNING = 500
STUDIO_MODE_NOT_ACTIVE = 506
