"""The project's one YAML reader: text in, nodes with line numbers (or plain data) out, hostile input refused.

Every YAML file of the project goes through here: the rule presets (:mod:`engine.preset`), the sponsor
placements (``broadcast/sponsors/placements``) and the command line's own files (OBS settings, the
英雄榜 sponsor read from a placements file). It lives in the engine because the engine must not import
``broadcast``; ``broadcast`` reuses it. It is pure: callers read the bytes, this module decodes and
parses them.

    text = decode(read(path), str(path))                 # YamlError: too large (before reading), a bad byte
    root = compose(text, str(path))                      # a yaml Node tree (every node has its line)
    data = load(text, str(path))                         # plain dicts/lists/scalars, duplicates refused

Whatever the input, the only exception is :class:`YamlError` (``file:line:column``, Chinese and
English): a file over :data:`MAX_BYTES` (refused before it is read), syntax errors, bytes that are not
UTF-8, control characters, several documents in one file,
nesting deeper than :data:`MAX_DEPTH` (a file nested 5,000 deep would otherwise end in RecursionError),
an anchor used inside itself, unhashable or duplicated keys. Scalars are typed with the YAML 1.1 rules
PyYAML resolves them by (:func:`as_int`, :func:`as_bool`, :func:`as_float` answer None instead of
raising, also for integers too long to convert).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.error import Mark
from yaml.events import AliasEvent, CollectionStartEvent
from yaml.nodes import CollectionNode, MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import ReaderError

from .errors import GoujiError

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MappingNode",
    "Node",
    "ScalarNode",
    "SequenceNode",
    "TAG",
    "YamlError",
    "as_bool",
    "as_float",
    "as_int",
    "column_of",
    "compose",
    "decode",
    "line_of",
    "load",
    "read",
]

MAX_DEPTH = 50  # levels of nesting; the project's files use fewer than 8
MAX_BYTES = 4 * 1024 * 1024  # a YAML file's size; the project's largest (a season's placements) is ~100 KB
TAG = "tag:yaml.org,2002:"


class YamlError(GoujiError, ValueError):
    """A YAML text that cannot be read: where (``file``, 1-based ``line`` and ``column``) and why.

    ``zh``/``en`` say what is wrong, ``fix_zh``/``fix_en`` what to do; ``str()`` is the one line a
    person sees: ``file:line:column: zh / en`` (rule ``yaml``, the location is ``where``).
    """

    rule = "yaml"
    show_rule = False

    def __init__(
        self, file: str, line: int, column: int, zh: str, en: str, fix_zh: str = "", fix_en: str = ""
    ) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.fix_zh = fix_zh
        self.fix_en = fix_en
        super().__init__("yaml", zh, en, where=f"{file}:{line}:{column}")


_SYNTAX_FIX = (
    "检查缩进、冒号后的空格和引号是否成对",
    "check the indentation, the space after each colon and quotes",
)


def _too_large(file: str, size: int) -> YamlError:
    mb, limit = size / 1e6, MAX_BYTES // (1024 * 1024)
    return YamlError(
        file,
        1,
        1,
        f"文件太大（{mb:.1f} MB，YAML 文件上限 {limit} MB）",
        f"the file is too large ({mb:.1f} MB; a YAML file may be {limit} MB at most)",
        "检查是不是选错了文件",
        "check that this is the right file",
    )


def read(path: str | Path) -> bytes:
    """A YAML file's bytes, refused before they are read when the file is over :data:`MAX_BYTES` (and
    never more than that read: a file still growing is cut and refused). ``OSError`` as ``open``."""
    p = Path(path)
    size = p.stat().st_size
    if size > MAX_BYTES:
        raise _too_large(str(p), size)
    with open(p, "rb") as f:
        raw = f.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise _too_large(str(p), len(raw))
    return raw


def decode(raw: bytes, file: str) -> str:
    """UTF-8 text of ``raw`` (a BOM is dropped); bytes that are not UTF-8 name their line; more than
    :data:`MAX_BYTES` is refused before anything is decoded."""
    if len(raw) > MAX_BYTES:
        raise _too_large(file, len(raw))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        raise YamlError(
            file,
            line,
            column,
            "文件不是 UTF-8 编码",
            "the file is not UTF-8",
            "用 UTF-8 保存文件",
            "save it as UTF-8",
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


class _Refused(yaml.YAMLError):
    """Raised inside the loader for what this reader refuses on top of PyYAML's own checks."""

    def __init__(self, mark: Mark, zh: str, en: str, fix_zh: str, fix_en: str) -> None:
        super().__init__(en)
        self.mark = mark
        self.texts = (zh, en, fix_zh, fix_en)


_TOO_DEEP = (
    f"嵌套过深（超过 {MAX_DEPTH} 层）",
    f"nested too deeply (over {MAX_DEPTH} levels)",
    "减少嵌套层数",
    "flatten the structure",
)


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader with a depth limit and no self-containing anchors (its composer recurses)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._open_anchors: set[str] = set()

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, AliasEvent) and event.anchor in self._open_anchors:
            raise _Refused(
                cast(Mark, event.start_mark),
                f"锚点 &{event.anchor} 在自身内部被引用",
                f"anchor &{event.anchor} is used inside itself",
                "不要在锚点的内容里引用它自己",
                "do not refer to an anchor from inside it",
            )
        if not isinstance(event, CollectionStartEvent):
            return super().compose_node(parent, index)
        if self._depth >= MAX_DEPTH:
            raise _Refused(cast(Mark, event.start_mark), *_TOO_DEEP)
        anchor = event.anchor
        self._depth += 1
        if anchor is not None:
            self._open_anchors.add(anchor)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1
            if anchor is not None:
                self._open_anchors.discard(anchor)


# libyaml (PyYAML's C extension) composes a text ~9x faster than the pure-Python loader (the demo's
# placements: 2.6 ms against 24 ms of CPU; every ``python -m broadcast`` command and many tests read them).
# It is used only where it cannot change an answer: it refuses nothing the checks below do not also see,
# and whatever it refuses, or the checks find, is read again by the pure-Python loader, which names the
# problem exactly as before (the same file:line:column). Its composer recurses in C, so it is used only
# with a libyaml that caps nesting itself (0.2.6 and later: 1,000 levels, a scanner error past them).
try:
    from yaml._yaml import CParser as _CParser
    from yaml._yaml import get_version as _libyaml_version

    _C_OK = tuple(_libyaml_version()) >= (0, 2, 6)
except ImportError:  # PyYAML built without libyaml
    _C_OK = False
# what the two read differently is left to the pure loader: characters YAML does not allow (the pure
# reader names them), tabs (libyaml takes some as spaces where PyYAML refuses them), a "?" (libyaml reads
# some in flow collections as text), BOMs and the line breaks NEL, LS and PS (counted in columns by one
# and not the other)
_PURE_ONLY = re.compile(yaml.reader.Reader.NON_PRINTABLE.pattern + "|[\t?\ufeff\x85\u2028\u2029]")


if _C_OK:

    class _CLoader(_CParser, yaml.resolver.Resolver):
        """libyaml's scanner, parser and composer with PyYAML's resolver: the tags the pure loader gives."""

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            yaml.resolver.Resolver.__init__(self)


def _fast_compose(text: str) -> Node | None | bool:
    """The node tree by libyaml, or False when the pure-Python loader must read the text (libyaml
    refused it, a character YAML does not allow, nesting past :data:`MAX_DEPTH`, an anchor used inside
    itself). The tree is the pure loader's: the same nodes, tags, values and marks (a plain scalar's
    style is None, as there; only ``flow_style`` of a block sequence may be False where it was None)."""
    if not _C_OK or not text.endswith("\n") or _PURE_ONLY.search(text) is not None:
        return False  # (without a last line break the two end the root at different places)
    loader = _CLoader(text)
    try:
        root = loader.get_single_node()
    except yaml.YAMLError:
        return False
    finally:
        loader.dispose()
    if root is None:
        return None
    # one walk in document order: the first time a node is met is where it is written (its anchor),
    # later meetings are aliases and are not entered; an alias to a collection still open is one used
    # inside itself; collections nest as deep as the pure loader counts them
    seen = {id(root)}
    path: set[int] = set()
    stack: list[tuple[CollectionNode, int, Any]] = []
    node: Node = root
    depth = 0
    while True:
        if isinstance(node, ScalarNode):
            if node.style == "":
                node.style = None
        else:
            depth += 1
            if depth > MAX_DEPTH:
                return False
            path.add(id(node))
            items: Any = node.value
            if isinstance(node, MappingNode):
                items = [n for pair in items for n in pair]
            stack.append((cast(CollectionNode, node), depth, iter(items)))
        while stack:
            parent, depth, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.discard(id(parent))
                depth -= 1
                continue
            if id(child) in seen:
                if id(child) in path:
                    return False
                continue
            if parent.flow_style and isinstance(child, ScalarNode) and child.style == "" and not child.value:
                return False  # an empty entry of a flow collection ("[a, , b]"): its column is one apart
            seen.add(id(child))
            node = child
            break
        else:
            return root


def compose(text: str, file: str) -> Node | None:
    """The node tree of a one-document YAML text (None when the text holds no document)."""
    fast = _fast_compose(text)
    if fast is not False:
        return cast(Node | None, fast)
    return _pure_compose(text, file)


def _pure_compose(text: str, file: str) -> Node | None:
    """:func:`compose` by the pure-Python loader: every refusal named with its file:line:column."""
    loader: _Loader | None = None
    try:
        loader = _Loader(text)  # checks the characters first
        return loader.get_single_node()
    except yaml.YAMLError as exc:
        raise _error(exc, text, file) from None
    except RecursionError:  # a guard for PyYAML paths the depth limit does not cover
        raise YamlError(file, 1, 1, *_TOO_DEEP) from None
    finally:
        if loader is not None:
            loader.dispose()


class _DataConstructor(SafeConstructor):
    """Plain data from nodes; a key written twice is an error (PyYAML silently keeps the last)."""

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, Node] = {}
        for knode, _v in node.value:
            if isinstance(knode, ScalarNode) and knode.tag != TAG + "merge":
                key = self.construct_object(knode, deep=deep)
                first = seen.get(key)
                if first is not None:
                    raise _Refused(
                        knode.start_mark,
                        f"键 {key!r} 写了两次（第 {line_of(first)} 行已有）",
                        f"key {key!r} is written twice (first at line {line_of(first)})",
                        "删除重复的一项",
                        "remove one of them",
                    )
                seen[key] = knode
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: ScalarNode) -> int:
        return int(self._number(node, as_int(node), "整数", "integer"))

    def construct_yaml_float(self, node: ScalarNode) -> float:
        return float(self._number(node, as_float(node), "数字", "number"))

    @staticmethod
    def _number(node: ScalarNode, value: float | None, zh: str, en: str) -> float:
        if value is None:
            shown = repr(node.value if len(node.value) <= 20 else node.value[:20] + "…")
            raise _Refused(
                node.start_mark,
                f"{zh} {shown} 无法读取",
                f"{en} {shown} cannot be read",
                f"写一个合理的{zh}",
                f"write a sensible {en}",
            )
        return value

    def construct_yaml_timestamp(self, node: ScalarNode) -> Any:
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError:
            raise _Refused(
                node.start_mark,
                f"日期 {node.value!r} 不存在",
                f"date {node.value!r} does not exist",
                "改成真实的日期",
                "write a real date",
            ) from None


for _tag, _fn in (
    ("int", _DataConstructor.construct_yaml_int),
    ("float", _DataConstructor.construct_yaml_float),
    ("timestamp", _DataConstructor.construct_yaml_timestamp),
):
    _DataConstructor.add_constructor(TAG + _tag, _fn)  # type: ignore[type-var]


def load(text: str, file: str) -> Any:
    """Plain data (dict, list, str, int, float, bool, None, date) of a one-document YAML text."""
    node = compose(text, file)
    if node is None:
        return None
    try:
        return _DataConstructor().construct_document(node)
    except yaml.YAMLError as exc:
        raise _error(exc, text, file) from None
    except (ValueError, OverflowError, TypeError) as exc:  # a guard: each known case has its line above
        raise YamlError(file, 1, 1, f"无法读取的值：{exc}", f"a value that cannot be read: {exc}") from None


def _error(exc: yaml.YAMLError, text: str, file: str) -> YamlError:
    if isinstance(exc, _Refused):
        return YamlError(file, exc.mark.line + 1, exc.mark.column + 1, *exc.texts)
    if isinstance(exc, ReaderError):
        pos = max(0, min(int(exc.position), len(text)))
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        char = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
        return YamlError(
            file,
            line,
            column,
            f"含有 YAML 不允许的字符 {char}",
            f"a character YAML does not allow: {char}",
            "删除这个字符（文件应为 UTF-8 文本）",
            "remove it (the file must be UTF-8 text)",
        )
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = exc.problem or "?"
        if exc.context and isinstance(exc, ComposerError | ConstructorError):
            problem = f"{exc.context}: {problem}"
        return YamlError(
            file, line, column, f"YAML 语法错误：{problem}", f"YAML syntax error: {problem}", *_SYNTAX_FIX
        )
    return YamlError(
        file, 1, 1, f"YAML 错误：{exc}", f"YAML error: {exc}", "检查文件格式", "check the file's format"
    )


# ------------------------------------------------------------------------------------------- nodes
def line_of(node: Node) -> int:
    """1-based line where ``node`` starts."""
    return int(node.start_mark.line) + 1


def column_of(node: Node) -> int:
    """1-based column where ``node`` starts."""
    return int(node.start_mark.column) + 1


_SCALARS = SafeConstructor()


def as_int(node: Node) -> int | None:
    """The integer a scalar node resolves to (``12``, ``0x10``, ``1_000``, ``1:30``), else None."""
    if not isinstance(node, ScalarNode) or node.tag != TAG + "int":
        return None
    try:
        return int(_SCALARS.construct_yaml_int(node))
    except (ValueError, OverflowError):
        return None


def as_float(node: Node) -> float | None:
    """The number an int or float scalar resolves to (``.inf`` included), else None."""
    if isinstance(node, ScalarNode) and node.tag == TAG + "float":
        try:
            return float(_SCALARS.construct_yaml_float(node))
        except (ValueError, OverflowError):
            return None
    value = as_int(node)
    if value is None:
        return None
    try:
        return float(value)
    except OverflowError:
        return None


def as_bool(node: Node) -> bool | None:
    """True/False for a boolean scalar (``true``, ``no``, ``On`` …), else None."""
    if not isinstance(node, ScalarNode) or node.tag != TAG + "bool":
        return None
    return bool(_SCALARS.construct_yaml_bool(node))
