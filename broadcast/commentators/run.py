"""The live 胜率 in the running studio (``python -m broadcast run`` / ``console``): the evaluator's worker
process fed from the store (:class:`broadcast.winprob.service.WinprobService`) and the commentators'
screen (:class:`broadcast.commentators.server.CommentatorsServer`) on its own port and token.

    live = LiveWinprob.start(store, db_path, host="127.0.0.1", port=8620, say=print)
    …
    live.stop()

The commentators' token is kept in a file beside the project database (``<db>.commentators-token``,
readable by its owner only), made the first time: the same address works after a restart, and the token
is never printed (the console of the operator may be on a monitor wall). ``port=-1``: no commentators'
screen; ``workers=0``: no evaluator (the 胜率 figures then stay as they were).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from broadcast.commentators.server import CommentatorsServer
from broadcast.winprob.service import WinprobService

TOKEN_SUFFIX = ".commentators-token"
MAX_TOKEN = 256  # a token file longer than this is not a token


def token_file(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + TOKEN_SUFFIX)


def commentators_token(db_path: Path) -> str:
    """The commentators' token of this project: read from its file, or made and written there (0600)."""
    path = token_file(db_path)
    try:
        with path.open("rb") as f:
            text = f.read(MAX_TOKEN + 1).decode("ascii", "replace").strip()
        if text and len(text) <= MAX_TOKEN and text.isprintable() and " " not in text:
            return text
    except FileNotFoundError:
        pass
    token = secrets.token_urlsafe(18)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        os.fchmod(f.fileno(), 0o600)  # an older file kept its own mode: the owner's alone now
        f.write(token + "\n")
    return token


class LiveWinprob:
    """The evaluator's service and the commentators' server of one studio."""

    def __init__(self, service: WinprobService | None, server: CommentatorsServer | None) -> None:
        self.service = service
        self.server = server

    @classmethod
    def start(
        cls,
        store: Any,
        db_path: Path,
        *,
        host: str = "127.0.0.1",
        port: int = 8620,
        workers: int = 2,
        say: Callable[[str], None] = print,
    ) -> LiveWinprob:
        service: WinprobService | None = None
        server: CommentatorsServer | None = None
        if workers > 0:
            service = WinprobService(store, workers=workers)
            service.start()
            say(
                f"胜率：每一步后在后台进程推演（{workers} 个进程）/ the 胜率 is evaluated after every "
                "decision, in processes of its own"
            )
        if port >= 0:
            try:
                token = commentators_token(db_path)
                server = CommentatorsServer(store, host=host, port=port, token=token)
                server.start()
            except OSError as exc:
                say(f"解说区页面未启动 the commentators' page is NOT served: {exc}")
                server = None
            else:
                shown = server.url().replace(server.token, "…")
                say(
                    f"解说区页面 commentators' page: {shown}\n"
                    f"  token=… 在 {token_file(db_path)}（只给解说区，不作节目信号源）/ the token is in that "
                    "file (for the commentators only, never a program source)"
                )
        return cls(service, server)

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None
        if self.service is not None:
            self.service.stop()
            self.service = None
