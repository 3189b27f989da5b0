"""The HTTP control API on the overlay server: the console's on-air operations for hardware buttons (a
Stream Deck through Bitfocus Companion's generic HTTP module) and scripts.

    POST /api/take                    TAKE            POST /api/go        GO (the next cue)
    POST /api/cut                     CUT             POST /api/skip      skip the next cue
    POST /api/panic                   panic           POST /api/mention   {"sponsor": "xiaodangjia"}
    POST /api/preview  {"graphic": "scoreboard"}      POST /api/shot      {"slot": "table"}
    POST /api/clear    {"graphic": "scoreboard"}      POST /api/lower_third {"seat": 3} | {"host": true}
    POST /api/draw {"contestant": "王建国", "cell": 5}  POST /api/draw_clear
    POST /api/mention_retract {"sponsor": "xiaodangjia"}?  take back the episode's (that sponsor's) last 口播
    GET  /api/status                  what is on preview/program, the next cue, the counters
    GET  /api/openapi.json            this API described (OpenAPI 3.1)

Parameters come as a JSON body or as query parameters. Every operation is ``store.dispatch`` of the
same reducers the console's keys use (:mod:`broadcast.control`), on one worker thread of its own
(in order; the server's event loop never waits on SQLite). Answers: 200 ``{"ok": true, "seq": n}``,
400 bad parameters, 409 refused by the show's rules (e.g. a 九宫格 cell already drawn), 403 no token
or a foreign origin, 503 a server that only follows a database.

Security (on top of the server's own checks, which cover these paths too): the API needs the server's
token, given as ``Authorization: Bearer …`` or ``?token=`` — never the page cookie alone — and a server
started without a token refuses every operation. A request carrying an ``Origin`` (every browser's
cross-site request does) must come from the same address it was sent to, a cross-site fetch is refused,
and that address (the ``Host``) must be an IP address or ``localhost`` on the server's port — so a web
page, even through DNS rebinding, cannot press the buttons.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiohttp import web

from broadcast import control
from broadcast.core import ActionRefused
from broadcast.overlay import guard
from broadcast.overlay.protocol import MAX_DEPTH, nesting

PREFIX = "/api"


class ControlApi:
    def __init__(self, server: Any) -> None:
        self.server = server
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="control-api")
        self.stats = {"ok": 0, "refused": 0, "forbidden": 0}

    def add_routes(self, app: web.Application) -> None:
        if self._executor._shutdown:  # a restarted server
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="control-api")
        app.router.add_get(f"{PREFIX}/openapi.json", self._openapi)
        app.router.add_get(f"{PREFIX}/status", self._status)
        app.router.add_post(PREFIX + "/{op}", self._operation)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- checks ---------------------------------------------------------------------------------
    def refusal(self, request: web.Request) -> web.Response | None:
        """403 for a request without the token (header or query: the page cookie alone is not enough)
        or from a foreign origin, site or host (the server's own checks, ``OverlayServer.foreign``)."""
        token = self.server.token
        if not token:
            return self._forbidden(
                "控制接口需要访问令牌：请用 --token-file 或环境变量 GOUJI_OVERLAY_TOKEN 启动",
                "the control API needs a token: start the studio with --token-file or GOUJI_OVERLAY_TOKEN",
            )
        auth = request.headers.get("Authorization", "")
        given = auth[7:].strip() if auth.lower().startswith("bearer ") else request.query.get("token", "")
        if not guard.same(given, token):
            return self._forbidden("访问令牌无效或缺失", "bad or missing token")
        why = self.server.foreign(request)
        if why:
            zh, _, en = why.partition(" / ")
            return self._forbidden(zh, en or zh)
        return None

    def _forbidden(self, zh: str, en: str) -> web.Response:
        self.stats["forbidden"] += 1
        return _json({"ok": False, "error": {"zh": zh, "en": en}}, 403)

    # -- handlers -------------------------------------------------------------------------------
    async def _openapi(self, request: web.Request) -> web.Response:
        bad = self.refusal(request)
        return bad or _json(openapi(self.server.base_url))

    async def _status(self, request: web.Request) -> web.Response:
        bad = self.refusal(request)
        return bad or _json(status(self.server.store.state))

    async def _operation(self, request: web.Request) -> web.Response:
        bad = self.refusal(request)
        if bad is not None:
            return bad
        name = request.match_info["op"]
        if name not in control.OPERATIONS:
            return _json(
                {"ok": False, "error": {"zh": f"没有这个操作：{name}", "en": f"no operation {name}"}}, 404
            )
        params: dict[str, Any] = {k: v for k, v in request.query.items() if k != "token"}
        if request.can_read_body:
            raw = await request.read()  # over the server's body limit: 413 before anything is parsed
            if nesting(raw, MAX_DEPTH):
                return _json(
                    {
                        "ok": False,
                        "error": {
                            "zh": f"请求体嵌套超过 {MAX_DEPTH} 层",
                            "en": f"body nested deeper than {MAX_DEPTH} levels",
                        },
                    },
                    400,
                )
            try:
                body = json.loads(raw.decode("utf-8")) if raw.strip() else None
            except (ValueError, RecursionError):  # bad UTF-8 is a ValueError too
                return _json({"ok": False, "error": {"zh": "请求体不是 JSON", "en": "body is not JSON"}}, 400)
            if body is not None and not isinstance(body, dict):
                return _json(
                    {"ok": False, "error": {"zh": "请求体应为对象", "en": "body must be an object"}}, 400
                )
            params.update(body or {})
        store = self.server.store
        if getattr(self.server, "read_only", False) or not callable(getattr(store, "dispatch", None)):
            return _json(
                {
                    "ok": False,
                    "error": {"zh": "这个服务器只读（跟随数据库）", "en": "this server is read-only"},
                },
                503,
            )
        loop = asyncio.get_running_loop()
        try:
            change = await loop.run_in_executor(
                self._executor,
                # a GO asks the console's pre-show check first when the console set one (before_go)
                lambda: control.run(
                    store, name, params, source="api", before_go=getattr(self.server, "before_go", None)
                ),
            )
        except control.ControlError as exc:
            self.stats["refused"] += 1
            return _json({"ok": False, "error": {"zh": exc.zh, "en": exc.en, "param": exc.param}}, 400)
        except ActionRefused as exc:
            self.stats["refused"] += 1
            return _json(
                {"ok": False, "error": {"rule": exc.rule, "zh": exc.message, "en": exc.message_en}}, 409
            )
        self.stats["ok"] += 1
        return _json({"ok": True, "operation": name, "seq": int(change.seq) if change is not None else None})


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        text=json.dumps(data, ensure_ascii=False),
        status=status,
        content_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


def status(state: dict[str, Any]) -> dict[str, Any]:
    """What a control surface shows on its buttons: buses, the cue list's playhead, the counters. A
    state without some sections (``serve --demo``'s design state, a follower of an older file) answers
    with what it has: those parts empty."""

    def section(name: str) -> dict[str, Any]:
        value = state.get(name)
        return value if isinstance(value, dict) else {}

    cq = section("cues")
    cues: list[dict[str, Any]] = list(cq.get("list") or [])
    at = int(cq.get("next") or 0)
    nxt = cues[at] if 0 <= at < len(cues) else None
    cur = cq.get("current")
    sp = section("sponsors")
    graphics = section("graphics")
    mentions = sp.get("mentions") or {}

    def on(bus: str) -> list[str]:
        entries = graphics.get(bus) or {}
        return sorted(g for g, e in entries.items() if isinstance(e, dict) and e.get("on"))

    return {
        "seq": section("meta").get("seq", 0),
        "preview": on("preview"),
        "program": on("program"),
        "cues": {
            "episode": cq.get("episode", ""),
            "next": {"index": at + 1, "id": nxt.get("id"), "label": nxt.get("label")} if nxt else None,
            "current": dict(cur) if isinstance(cur, dict) else None,
            "total": len(cues),
        },
        "mentions": {
            r["id"]: {
                "name": r.get("name", ""),
                "count": mentions.get(r["id"], 0),
                "min": r.get("mentions_min", 0),
            }
            for r in sp.get("roster") or []
            if isinstance(r, dict) and "id" in r
        },
        "shots": dict(sp.get("shots") or {}),
        "jiugongge": {
            "drawn": [
                {"cell": d["cell"] + 1, "contestant": d.get("contestant", "")}
                for d in section("jiugongge").get("draws") or []
                if isinstance(d, dict) and isinstance(d.get("cell"), int)
            ]
        },
    }


def _operation_path(op: Any) -> dict[str, Any]:
    """One operation of the table as an OpenAPI path item (its body's schema from its parameters)."""
    error = {"$ref": "#/components/schemas/Error"}
    props: dict[str, Any] = {}
    required = []
    for p in op.params:
        schema: dict[str, Any] = {"type": p.type, "description": f"{p.zh} / {p.en}"}
        if p.enum:
            schema["enum"] = list(p.enum)
        if p.minimum is not None:
            schema["minimum"] = p.minimum
        if p.maximum is not None:
            schema["maximum"] = p.maximum
        props[p.name] = schema
        if p.required:
            required.append(p.name)
    body_schema: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        body_schema["required"] = required
    answers = {
        "400": "参数错误 / bad parameters",
        "403": "无令牌或来源不对 / no token, or a foreign origin",
        "409": "规则不允许 / refused by the show's rules",
    }
    return {
        "post": {
            "operationId": op.name,
            "summary": f"{op.zh} / {op.en}",
            "requestBody": {
                "required": bool(required),
                "content": {"application/json": {"schema": body_schema}},
            },
            "responses": {
                "200": {
                    "description": "已执行 / done (journaled)",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Done"}}},
                },
                **{
                    code: {"description": text, "content": {"application/json": {"schema": error}}}
                    for code, text in answers.items()
                },
            },
        }
    }


def openapi(base_url: str) -> dict[str, Any]:
    """The API as an OpenAPI 3.1 document (built from the operations table, so it cannot drift)."""
    paths: dict[str, Any] = {f"{PREFIX}/{op.name}": _operation_path(op) for op in control.OPERATIONS.values()}
    paths[f"{PREFIX}/status"] = {
        "get": {
            "operationId": "status",
            "summary": "预览/节目、下一条提示、口播与镜头计数 / buses, next cue, counters",
            "responses": {
                "200": {
                    "description": "status",
                    "content": {"application/json": {"schema": {"type": "object"}}},
                }
            },
        }
    }
    paths[f"{PREFIX}/openapi.json"] = {
        "get": {
            "operationId": "openapi",
            "summary": "本文档 / this document",
            "responses": {
                "200": {
                    "description": "OpenAPI",
                    "content": {"application/json": {"schema": {"type": "object"}}},
                }
            },
        }
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "够级大明星 导播台控制接口 / Gouji studio control API",
            "version": "1",
            "description": "Every operation is journaled through store.dispatch, like the console's own "
            "keys. Send the overlay server's token as Authorization: Bearer … (or ?token=).",
        },
        "servers": [{"url": base_url}],
        "security": [{"bearer": []}, {"token": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "token": {"type": "apiKey", "in": "query", "name": "token"},
            },
            "schemas": {
                "Done": {
                    "type": "object",
                    "properties": {
                        "ok": {"const": True},
                        "operation": {"type": "string"},
                        "seq": {"type": "integer"},
                    },
                },
                "Error": {
                    "type": "object",
                    "properties": {
                        "ok": {"const": False},
                        "error": {
                            "type": "object",
                            "properties": {
                                "zh": {"type": "string"},
                                "en": {"type": "string"},
                                "rule": {"type": "string"},
                                "param": {"type": "string"},
                            },
                        },
                    },
                },
            },
        },
    }
