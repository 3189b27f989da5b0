"""Typed access to the placements file's YAML nodes; every problem becomes an :class:`Issue` with its line.

The YAML itself is parsed by the project's one reader, :mod:`engine.yamlread` (line numbers, depth
limit, hostile input refused); this layer knows the placements' shapes — a mapping with these fields, a
list, a text, an id, a whole number, a date — and collects every problem instead of stopping at the
first, so ``sponsors check`` lists them all.
"""

from __future__ import annotations

import difflib
import re
from datetime import date, datetime

from broadcast.sponsors.placements.english import describe, what_en
from broadcast.sponsors.placements.model import Issue
from engine.yamlread import TAG, MappingNode, Node, ScalarNode, SequenceNode, as_float, as_int

DATE_FORMATS = ("%Y-%m-%d", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S")
IDENT = re.compile(r"[a-z0-9][a-z0-9_\-]*")


class NodeReader:
    """Reads the nodes of one file; ``issues`` collects every error and warning found."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.issues: list[Issue] = []
        self.key_of: dict[int, Node] = {}  # id(value node) → its key node

    # -- reporting -------------------------------------------------------------------------------
    def error(
        self,
        node: Node | None,
        message: str,
        fix: str = "",
        level: str = "error",
        *,
        en: tuple[str, str] = ("", ""),
        topic: str = "",
    ) -> None:
        """An issue at ``node``; ``en`` is (message, fix) in English; ``topic`` see :class:`Issue`."""
        if isinstance(node, MappingNode | SequenceNode) and not node.flow_style and id(node) in self.key_of:
            node = self.key_of[id(node)]  # a block collection: point at its key, not its first item
        line = node.start_mark.line + 1 if node is not None else 1
        col = node.start_mark.column + 1 if node is not None else 1
        self.issues.append(Issue(self.file, line, col, message, fix, level, en[0], en[1], topic))

    def warn(self, node: Node | None, message: str, fix: str = "", *, en: tuple[str, str] = ("", "")) -> None:
        self.error(node, message, fix, level="warning", en=en)

    def error_at(
        self, line: int, message: str, fix: str = "", level: str = "error", *, en: tuple[str, str] = ("", "")
    ) -> None:
        """An issue about something read earlier, known by its line (cross-rules)."""
        self.issues.append(Issue(self.file, line, 1, message, fix, level, en[0], en[1]))

    def has_errors(self) -> bool:
        return any(i.level == "error" for i in self.issues)

    def line(self, node: Node) -> int:
        """The line a value belongs to: its key's line for block collections."""
        if isinstance(node, MappingNode | SequenceNode) and not node.flow_style and id(node) in self.key_of:
            node = self.key_of[id(node)]
        return int(node.start_mark.line) + 1

    # -- shapes ----------------------------------------------------------------------------------
    def mapping(
        self, node: Node, what: str, required: tuple[str, ...], optional: tuple[str, ...]
    ) -> dict[str, Node] | None:
        if not isinstance(node, MappingNode):
            self.error(
                node,
                f"{what} 应为映射（key: value），这里是 {describe(node)}",
                "按 docs/sponsors.md 的格式写成 key: value 的形式",
                en=(
                    f"{what_en(what)} should be a mapping (key: value), found {describe(node, 'en')}",
                    "write it as key: value, as in docs/sponsors.md",
                ),
            )
            return None
        out: dict[str, Node] = {}
        allowed = required + optional
        for knode, vnode in node.value:
            key = knode.value if isinstance(knode, ScalarNode) else None
            if not isinstance(key, str):
                self.error(
                    knode,
                    f"{what} 的键应为文字",
                    "把键写成普通文字",
                    en=(f"the keys of {what_en(what)} should be text", "write the key as plain text"),
                )
                continue
            if key in out:
                self.error(
                    knode,
                    f"{what} 中 {key!r} 出现了两次",
                    f"删除重复的 {key}，只保留一个",
                    en=(f"{key!r} appears twice in {what_en(what)}", f"delete the repeated {key}, keep one"),
                )
                continue
            if key not in allowed:
                near = difflib.get_close_matches(key, allowed, n=1)
                hint = f"是不是 {near[0]!r}？" if near else ""
                hint_en = f"did you mean {near[0]!r}? " if near else ""
                self.error(
                    knode,
                    f"{what} 没有字段 {key!r}",
                    f"{hint}可用字段：{', '.join(allowed)}",
                    en=(f"{what_en(what)} has no field {key!r}", f"{hint_en}fields: {', '.join(allowed)}"),
                )
                continue
            out[key] = vnode
            self.key_of[id(vnode)] = knode
        for key in required:
            if key not in out:
                self.error(
                    node,
                    f"{what} 缺少必填字段 {key!r}",
                    f"加上 {key}: …",
                    en=(f"{what_en(what)} lacks the required field {key!r}", f"add {key}: …"),
                )
        return out

    def seq(self, node: Node, what: str) -> list[Node] | None:
        if not isinstance(node, SequenceNode):
            self.error(
                node,
                f"{what} 应为列表（每项以 - 开头），这里是 {describe(node)}",
                "写成 - 开头的列表",
                en=(
                    f"{what_en(what)} should be a list (each item starts with -), "
                    f"found {describe(node, 'en')}",
                    "write a list of items starting with -",
                ),
            )
            return None
        return list(node.value)

    # -- scalars ---------------------------------------------------------------------------------
    def text(self, node: Node, what: str, *, allow_empty: bool = False) -> str | None:
        if not isinstance(node, ScalarNode) or node.tag in (TAG + "null", TAG + "bool"):
            self.error(
                node,
                f"{what} 应为文字，这里是 {describe(node)}",
                "写成文字（必要时加引号）",
                en=(
                    f"{what_en(what)} should be text, found {describe(node, 'en')}",
                    "write text (quoted if need be)",
                ),
            )
            return None
        value = str(node.value).strip()
        if not value and not allow_empty:
            self.error(
                node, f"{what} 不能为空", "填写内容", en=(f"{what_en(what)} cannot be empty", "fill it in")
            )
            return None
        return value

    def texts(self, node: Node, what: str) -> list[tuple[str, Node]]:
        items = self.seq(node, what)
        out: list[tuple[str, Node]] = []
        for i, item in enumerate(items or []):
            value = self.text(item, f"{what}第{i + 1}项")
            if value is not None:
                out.append((value, item))
        return out

    def ident(self, node: Node, what: str) -> str | None:
        value = self.text(node, what)
        if value is not None and not IDENT.fullmatch(value):
            self.error(
                node,
                f"{what} {value!r} 不是合法的编号",
                "编号只用小写英文字母、数字、下划线和减号（如 xiaodangjia、spot_douchi_15）",
                en=(
                    f"{what_en(what)} {value!r} is not a valid id",
                    "ids use only lowercase letters, digits, _ and - (e.g. xiaodangjia, spot_douchi_15)",
                ),
            )
            return None
        return value

    def integer(
        self, node: Node, what: str, *, minimum: int | None = None, maximum: int | None = None
    ) -> int | None:
        value = as_int(node)
        if value is None:
            self.error(
                node,
                f"{what} 应为整数，这里是 {describe(node)[:40]}",
                "写一个不带引号的整数",
                en=(
                    f"{what_en(what)} should be a whole number, found {describe(node, 'en')[:40]}",
                    "write a whole number without quotes",
                ),
            )
            return None
        if minimum is not None and value < minimum:
            self.error(
                node,
                f"{what} 为 {value}，不能小于 {minimum}",
                f"改为 ≥ {minimum} 的数",
                en=(f"{what_en(what)} is {value}, it cannot be less than {minimum}", f"make it ≥ {minimum}"),
            )
            return None
        if maximum is not None and value > maximum:
            self.error(
                node,
                f"{what} 为 {value}，不能大于 {maximum}",
                f"改为 ≤ {maximum} 的数",
                en=(f"{what_en(what)} is {value}, it cannot be more than {maximum}", f"make it ≤ {maximum}"),
            )
            return None
        return value

    def number(self, node: Node, what: str, *, minimum: float = 0.0) -> float | None:
        if not isinstance(node, ScalarNode) or node.tag not in (TAG + "int", TAG + "float"):
            self.error(
                node,
                f"{what} 应为数字，这里是 {describe(node)[:40]}",
                "写一个不带引号的数字",
                en=(
                    f"{what_en(what)} should be a number, found {describe(node, 'en')[:40]}",
                    "write a number without quotes",
                ),
            )
            return None
        value = as_float(node)
        if value is None or value != value:  # unreadable, or .nan
            self.error(
                node,
                f"{what} {node.value[:40]!r} 不是数字",
                "写一个数字",
                en=(f"{what_en(what)} {node.value[:40]!r} is not a number", "write a number"),
            )
            return None
        if value < minimum:
            self.error(
                node,
                f"{what} 为 {value:g}，不能小于 {minimum:g}",
                f"改为 ≥ {minimum:g} 的数",
                en=(
                    f"{what_en(what)} is {value:g}, it cannot be less than {minimum:g}",
                    f"make it ≥ {minimum:g}",
                ),
            )
            return None
        return value

    def day(self, node: Node, what: str) -> date | None:
        moment = self.moment(node, what)
        return moment.date() if moment is not None else None

    def moment(self, node: Node, what: str) -> datetime | None:
        raw = str(node.value).strip() if isinstance(node, ScalarNode) else None
        if raw is not None:
            for fmt in DATE_FORMATS:
                try:
                    return datetime.strptime(raw, fmt)
                except ValueError:
                    pass
        self.error(
            node,
            f"{what} 应为日期 YYYY-MM-DD（签约时间可写 YYYY-MM-DD HH:MM），这里是 {describe(node)}",
            "例如 2012-04-01",
            en=(
                f"{what_en(what)} should be a date YYYY-MM-DD (a signing time may be YYYY-MM-DD HH:MM), "
                f"found {describe(node, 'en')}",
                "e.g. 2012-04-01",
            ),
        )
        return None
