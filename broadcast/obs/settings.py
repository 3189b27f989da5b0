"""OBS connection and layout settings: from a YAML/JSON file and/or the environment.

    obs:                       # (a file may hold only this section, or the keys at top level)
      host: 127.0.0.1
      port: 4455
      password_env: GOUJI_OBS_PASSWORD   # or password: "…" (the environment is preferred)
      timeout: 2.0             # seconds any call may wait for OBS
      fps: 25                  # 25 or 50
      transition: Cut          # Cut | Fade
      films:                   # film id -> file (relative to the settings file)
        xdj_15s: sponsor_assets/demo/films/xdj_15s.mp4
      leaderboard_film: xdj_15s   # the 英雄榜冠名 15 s film, played when the board comes off

Environment (overrides the file): ``GOUJI_OBS_HOST``, ``GOUJI_OBS_PORT``, ``GOUJI_OBS_PASSWORD``,
``GOUJI_OBS_TIMEOUT``, ``GOUJI_OBS_SETTINGS`` (path of the file). The password is never logged and
``repr()`` masks it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from broadcast import tokens
from broadcast.errors import GoujiError, plural
from engine import yamlread


class SettingsError(GoujiError, ValueError):
    """A settings file or variable that cannot be used: ``SettingsError("obs.settings", zh, en, where=)``
    names ``file:line`` and the fix; ``str()`` is ``file:line: English`` (``zh`` for the operator)."""

    rule = "obs.settings"

    def text(self) -> str:
        return f"{self.where}: {self.en}" if self.where else self.en


@dataclass(frozen=True)
class ObsSettings:
    host: str = "127.0.0.1"
    port: int = 4455
    password: str = field(default="", repr=False)
    timeout: float = 2.0  # a request's answer
    cut_timeout: float = 15.0  # a cut's answer (OBS answers once its UI caught up: seconds when busy)
    connect_timeout: float = 2.0  # TCP + websocket handshake + Identify
    ping_interval: float = 0.25  # keep-alive: a link quiet this long is pinged
    freeze_after: float = 1.2  # nothing at all from OBS this long (pings unanswered) = OBS frozen …
    freeze_max: float = 6.0  # … unless OBS is seen working (CPU time, late answers): then this long
    retry_interval: float = 0.1  # nothing listening: try again this often (a refused connect is cheap)
    backoff_initial: float = 0.2  # other failures: first wait, doubled up to backoff_max
    backoff_max: float = 2.0
    fps: int = 25
    width: int = 1920
    height: int = 1080
    transition: str = "Cut"
    transition_ms: int = 300
    films: Mapping[str, str] = field(default_factory=dict)
    leaderboard_film: str = ""
    assets_dir: str = "."
    font: str = tokens.native_font()
    camera_kind: str = ""  # e.g. v4l2_input; "" = a plain background until a camera is set
    camera_settings: Mapping[str, Any] = field(default_factory=dict)
    proof_width: int = 640
    pictures_dir: str = ""  # where the native graphics' pictures are written ("" = ~/.cache/gouji/…)

    def __post_init__(self) -> None:
        if not 0 < int(self.port) < 65536:
            raise SettingsError(
                "obs.settings",
                f"OBS 端口 {self.port} 超出范围（1–65535）",
                f"OBS port {self.port} out of range (1–65535)",
            )
        if self.fps not in (25, 50):
            raise SettingsError(
                "obs.settings",
                f"帧率 {self.fps}：节目为 1920×1080，25 或 50 帧",
                f"fps {self.fps}: the show is 1920×1080 at 25 or 50 fps",
            )
        if min(self.timeout, self.cut_timeout, self.connect_timeout, self.ping_interval) <= 0:
            raise SettingsError("obs.settings", "超时应为正的秒数", "timeouts must be positive seconds")
        if self.freeze_after <= self.ping_interval:
            raise SettingsError(
                "obs.settings",
                f"freeze_after（{self.freeze_after} 秒）应长于 ping_interval（{self.ping_interval} 秒）",
                f"freeze_after ({self.freeze_after}s) must be longer than "
                f"ping_interval ({self.ping_interval}s)",
            )
        if self.freeze_max < self.freeze_after:
            raise SettingsError(
                "obs.settings",
                f"freeze_max（{self.freeze_max} 秒）不能短于 freeze_after（{self.freeze_after} 秒）",
                f"freeze_max ({self.freeze_max}s) must not be shorter than "
                f"freeze_after ({self.freeze_after}s)",
            )
        if self.transition not in ("Cut", "Fade"):
            raise SettingsError(
                "obs.settings",
                f"转场 {self.transition!r}：应为 Cut 或 Fade",
                f"transition {self.transition!r}: use Cut or Fade",
            )

    def __repr__(self) -> str:
        pw = "'***'" if self.password else "''"
        return f"ObsSettings(host={self.host!r}, port={self.port}, password={pw}, timeout={self.timeout})"

    __str__ = __repr__

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def with_(self, **kw: Any) -> ObsSettings:
        return replace(self, **kw)

    def film_paths(self) -> dict[str, Path]:
        base = Path(self.assets_dir)
        return {k: (Path(v) if Path(v).is_absolute() else base / v).resolve() for k, v in self.films.items()}

    @classmethod
    def load(cls, path: str | Path | None = None, env: Mapping[str, str] | None = None) -> ObsSettings:
        """Settings from ``path`` (or ``$GOUJI_OBS_SETTINGS``), then the environment on top."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        path = path or env.get("GOUJI_OBS_SETTINGS") or None
        if path:
            values = _read_file(Path(path))
        names = {f.name: f for f in fields(cls)}
        unknown = sorted(set(values) - set(names) - {"password_env"})
        if unknown:
            raise SettingsError(
                "obs.settings",
                f"未知的 OBS 设置：{', '.join(unknown)}（可用：{', '.join(sorted(names))}）",
                f"unknown OBS {plural(len(unknown), 'setting')} {', '.join(unknown)}; "
                f"known: {', '.join(sorted(names))}",
                where=str(path),
            )
        pw_env = values.pop("password_env", "")
        if pw_env:
            if pw_env not in env:
                raise SettingsError(
                    "obs.settings",
                    f"password_env 指向的环境变量 {pw_env} 没有设置",
                    f"password_env names {pw_env}, which is not set",
                    where=str(path),
                )
            values["password"] = env[pw_env]
        for key, var, conv in (
            ("host", "GOUJI_OBS_HOST", str),
            ("port", "GOUJI_OBS_PORT", int),
            ("password", "GOUJI_OBS_PASSWORD", str),
            ("timeout", "GOUJI_OBS_TIMEOUT", float),
        ):
            if var in env:
                try:
                    values[key] = conv(env[var])
                except ValueError:
                    raise SettingsError(
                        "obs.settings",
                        f"${var}={env[var]!r} 不是有效的 {key}",
                        f"${var}={env[var]!r} is not a valid {key}",
                    ) from None
        if path and "assets_dir" not in values:
            values["assets_dir"] = str(Path(path).resolve().parent)
        try:
            for key in ("port", "fps", "width", "height", "transition_ms", "proof_width"):
                if key in values:
                    values[key] = int(values[key])
            for key in (
                "timeout",
                "connect_timeout",
                "ping_interval",
                "freeze_after",
                "freeze_max",
                "retry_interval",
                "backoff_initial",
                "backoff_max",
            ):
                if key in values:
                    values[key] = float(values[key])
        except (TypeError, ValueError) as exc:
            raise SettingsError(
                "obs.settings", f"设置值无效：{exc}", str(exc), where=str(path or "environment")
            ) from None
        if "films" in values and not isinstance(values["films"], Mapping):
            raise SettingsError(
                "obs.settings",
                "films 应为“片子编号: 文件”的映射",
                "films must be a mapping film-id: file",
                where=str(path),
            )
        return cls(**values)


def _read_file(p: Path) -> dict[str, Any]:
    try:
        raw = yamlread.read(p)  # over the size limit: refused before it is read
    except yamlread.YamlError as exc:
        raise SettingsError("obs.settings", exc.zh, exc.en, where=p) from None
    except OSError as exc:
        raise SettingsError(
            "obs.settings",
            f"无法读取设置文件（{exc.strerror}）",
            f"cannot read settings ({exc.strerror})",
            where=p,
        ) from None
    try:
        text = yamlread.decode(raw, str(p))
        data = json.loads(text) if p.suffix == ".json" else yamlread.load(text, str(p))
    except json.JSONDecodeError as exc:
        raise SettingsError(
            "obs.settings",
            f"JSON 格式错误（{exc.msg}）",
            f"invalid JSON ({exc.msg})",
            where=f"{p}:{exc.lineno}",
        ) from None
    except RecursionError:  # JSON brackets nested thousands deep (YAML's depth is yamlread's check)
        raise SettingsError(
            "obs.settings", "JSON 嵌套过深", "invalid JSON: nested too deeply", where=f"{p}:1"
        ) from None
    except yamlread.YamlError as exc:
        raise SettingsError(
            "obs.settings", exc.zh, f"invalid YAML: {exc.en}", where=f"{p}:{exc.line}"
        ) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SettingsError(
            "obs.settings",
            "设置应为映射（obs: {host: …, port: …}）",
            "settings must be a mapping (obs: {host: …, port: …})",
            where=f"{p}:1",
        )
    section = data.get("obs", data)
    if not isinstance(section, dict):
        raise SettingsError("obs.settings", "obs 部分应为映射", "the obs section must be a mapping", where=p)
    return dict(section)
