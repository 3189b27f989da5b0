"""The placements file as the producer edits it: a round-trip YAML document, checked as it changes.

    draft = PlacementsDraft.open(project.placements_file(db))   # an absent file is an empty draft
    draft.set(("title", "bumper", "text"), "《够级大明星》栏目由“小当家”独家冠名播出")
    check = draft.check()                 # the same checking code as ``sponsors check``
    check.at(("title", "bumper", "text"))  # its issues, found by the line and column they name
    draft.save()                          # refused (SaveRefused) unless the text validates; atomic

**Readable and diff-able.** The document is held by ruamel.yaml's round-trip loader, so key order,
comments, anchors, quoting and flow/block styles survive; a top-level section the producer did not
change is written back exactly as it was read (byte for byte), so a diff shows only what changed.
Comment lines written between two sections stay with the section they stand above, whatever is
added to the section before them. A new section goes where the package lists it (``SLOT_SPECS``
order), headed by a comment naming the slot.

**Checked by the one checker.** :meth:`check` dumps the document to text and runs
:func:`~broadcast.sponsors.placements.parse_placements` on it — the code ``sponsors check`` runs — and
places each issue on the field whose line and column it names. :meth:`save` runs it again on the
exact text it writes and refuses a text with errors, listing them.
"""

from __future__ import annotations

import copy
import hashlib
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from broadcast.core.files import atomic_path
from broadcast.errors import GoujiError
from broadcast.sponsors.placements import FORMAT, SLOT_SPECS, Issue, PlacementError, Placements
from broadcast.sponsors.placements import parse_placements as _parse
from broadcast.sponsors.placements.nodes import DATE_FORMATS
from broadcast.sponsors.placements.ratecard import KIND_LABELS

Path_ = tuple[str | int, ...]
# the top-level keys in the order the package lists them (a new section goes to its place)
ORDER: tuple[str, ...] = (
    ("format", "show", "season", "sponsors") + tuple(s.section for s in SLOT_SPECS) + ("rundown",)
)
NO_AIR_DATE = "没有给出播出日期"  # the checker's warning when no --air-date is given
FLOW = {"contract", "price", "film", "minimums", "on_air"}  # small mappings written on one line
SECTION_NOTES = {
    "sponsors": "赞助企业登记（编号: 名称、全称、logo）",
    "rundown": "节目流程：插播时段（opening / intro / game N / draws 之后）",
    **{s.section: KIND_LABELS[s.kind] for s in SLOT_SPECS},
}


class DraftError(GoujiError):
    """The file cannot be opened as a placements draft (not YAML, not a mapping); one line, naming
    ``file:line:col``: ``DraftError(zh, en, where=)``."""

    rule = "placements"
    show_rule = False

    def __init__(self, zh: str, en: str, *, where: str | Path) -> None:
        super().__init__("placements", zh, en, where=where)


class SaveRefused(GoujiError):
    """The text does not validate (``issues``), or the file changed on disk since it was read;
    ``str()`` lists the errors, one a line."""

    rule = "placements"
    show_rule = False

    def __init__(self, issues: list[Issue], *, conflict: bool = False) -> None:
        self.issues = issues
        self.conflict = conflict
        zh = "\n".join(str(i) for i in issues if i.level == "error") or "排期未保存"
        super().__init__("placements", zh, f"the placements were not saved:\n{zh}")

    def text(self) -> str:
        return self.zh


def _yaml() -> YAML:
    y = YAML()  # round-trip: comments, order, anchors, styles
    y.preserve_quotes = True
    y.width = 4096  # never fold a line: a folded flow mapping reads badly and diffs worse
    y.indent(mapping=2, sequence=4, offset=2)
    return y


def _plain(value: Any) -> Any:
    """JSON-like copy of a node (to compare a section with what was read)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@dataclass
class _Block:
    lead: str  # the comment and blank lines above the key (belonging to it)
    text: str  # the key's own lines, as read
    plain: Any  # its value when read


def _top_lines(text: str, doc: CommentedMap) -> list[tuple[str, int]]:
    return sorted(((str(k), int(doc.lc.key(k)[0])) for k in doc), key=lambda kv: kv[1])


def _split(text: str, doc: CommentedMap) -> tuple[dict[str, _Block], str]:
    """The text of each top-level section (its lines, the comment lines above it) and the text after
    the last section's content that belongs to nobody (a trailing comment)."""
    lines = text.splitlines(keepends=True)
    keys = _top_lines(text, doc)
    out: dict[str, _Block] = {}
    starts = []
    for i, (key, line) in enumerate(keys):
        lead_start = line
        floor = keys[i - 1][1] + 1 if i else 0
        while lead_start > floor and (
            not lines[lead_start - 1].strip() or lines[lead_start - 1].startswith("#")
        ):
            lead_start -= 1
        if i == 0:
            lead_start = 0
        starts.append((key, lead_start, line))
    tail = ""
    for i, (key, lead_start, line) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(lines)
        if i + 1 == len(starts):  # the last section ends at its last line of content
            last = end
            while last > line + 1 and (not lines[last - 1].strip() or lines[last - 1].startswith("#")):
                last -= 1
            tail = "".join(lines[last:end])
            end = last
        out[key] = _Block("".join(lines[lead_start:line]), "".join(lines[line:end]), _plain(doc[key]))
    return out, tail


@dataclass
class Check:
    """One validation of the draft's text: the Placements when it has no error, every issue, and
    where each top-level key, field and list item of the text starts (line, column; 1-based)."""

    text: str
    placements: Placements | None
    issues: list[Issue]
    positions: dict[Path_, tuple[int, int, int, int]] = field(default_factory=dict)  # key l,c; value l,c
    _where: dict[tuple[int, int, str], Path_] = field(default_factory=dict, repr=False, compare=False)

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.level == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def where(self, issue: Issue) -> Path_:
        key = (issue.line, issue.column, issue.message)
        if key not in self._where:
            self._where[key] = self._locate(issue)
        return self._where[key]

    def _locate(self, issue: Issue) -> Path_:
        """The field an issue is about: the one whose key or value starts where the issue points; else
        the deepest one whose key is on the issue's line; else the deepest one holding that line."""
        exact = [
            p
            for p, (kl, kc, vl, vc) in self.positions.items()
            if (issue.line, issue.column) in ((kl, kc), (vl, vc))
        ]
        if exact:
            return max(exact, key=len)
        same = [p for p, (kl, _kc, _vl, _vc) in self.positions.items() if kl == issue.line]
        if same:
            return max(same, key=len)
        holding = [p for p, (kl, _kc, _vl, _vc) in self.positions.items() if kl <= issue.line]
        if not holding:
            return ()
        best = max(kl for kl, _kc, _vl, _vc in (self.positions[p] for p in holding))
        return max((p for p in holding if self.positions[p][0] == best), key=len)

    def at(self, path: Path_, *, exact: bool = False) -> list[Issue]:
        """The issues about ``path`` (``exact``: only that field) or anything inside it."""
        n = len(path)
        return [i for i in self.issues if (self.where(i) == path if exact else self.where(i)[:n] == path)]


def _positions(root: Any) -> dict[Path_, tuple[int, int, int, int]]:
    """Where every key, field and list item of a text starts, from its node tree as the checker's own
    YAML reader composed it (so the lines and columns are the ones its issues name)."""
    from engine.yamlread import MappingNode, ScalarNode, SequenceNode

    out: dict[Path_, tuple[int, int, int, int]] = {}

    def walk(node: Any, path: Path_, seen: frozenset[int]) -> None:
        if id(node) in seen:  # an alias: its place is where the anchor is
            return
        seen = seen | {id(node)}
        if isinstance(node, MappingNode):
            for k, v in node.value:
                if not isinstance(k, ScalarNode):
                    continue
                p = (*path, str(k.value))
                km, vm = k.start_mark, v.start_mark
                out[p] = (km.line + 1, km.column + 1, vm.line + 1, vm.column + 1)
                walk(v, p, seen)
        elif isinstance(node, SequenceNode):
            for i, item in enumerate(node.value):
                m = item.start_mark
                p = (*path, i)
                out[p] = (m.line + 1, m.column + 1, m.line + 1, m.column + 1)
                walk(item, p, seen)

    if root is not None:
        walk(root, (), frozenset())
    return out


class PlacementsDraft:
    """An editable placements document bound to the file it is saved to (asset paths are relative to
    that file's folder, as ``sponsors check`` reads them)."""

    def __init__(self, path: str | Path, text: str = "", *, disk_digest: str | None = None) -> None:
        self.path = Path(path)
        self._y = _yaml()
        self.dirty = False
        self._load(text)
        self._disk_digest = disk_digest

    @classmethod
    def open(cls, path: str | Path) -> PlacementsDraft:
        from engine.yamlread import YamlError, read

        p = Path(path)
        try:
            raw = read(p)  # over the size limit: refused before it is read
        except YamlError as exc:
            raise DraftError(exc.zh, exc.en, where=p) from None
        except FileNotFoundError:
            return cls(p, "", disk_digest="")
        except OSError as exc:
            raise DraftError(
                f"无法读取（{exc.strerror or exc}）", f"cannot read it ({exc.strerror or exc})", where=p
            ) from exc
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DraftError("不是 UTF-8 文本", "not UTF-8 text", where=f"{p}:1:1") from exc
        return cls(p, text, disk_digest=hashlib.sha256(raw).hexdigest())

    # -- reading ---------------------------------------------------------------------------------------
    def _load(self, text: str) -> None:
        try:
            doc = self._y.load(text) if text.strip() else None
        except YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"{mark.line + 1}:{mark.column + 1}" if mark is not None else "1:1"
            raise DraftError(
                "YAML 写法有错，请先在文本编辑器里改正",
                "not valid YAML: correct it in a text editor first",
                where=f"{self.path}:{where}",
            ) from exc
        if doc is None:
            doc = CommentedMap()
            doc["format"] = FORMAT
            doc["show"] = "够级大明星"
            self._blocks: dict[str, _Block] = {}
            self._tail = ""
            self._header = (
                "# 《够级大明星》赞助排期（制片工作台编写；可以手工编辑，格式见 docs/sponsors.md）\n"
            )
        elif not isinstance(doc, CommentedMap):
            raise DraftError(
                "排期文件应为映射（key: value）",
                "the file must be a mapping (key: value)",
                where=f"{self.path}:1:1",
            )
        else:
            self._blocks, self._tail = _split(text, doc)
            self._header = ""
            # edit a document without the comment lines between sections (kept in the blocks): ruamel
            # would attach them to the last item above and carry them along when items are added there
            doc = self._y.load("".join(b.text for b in self._blocks.values())) or CommentedMap()
        self.doc: CommentedMap = doc
        self.loaded_text = text
        self._texts: dict[str, tuple[Any, str]] = {}  # the sections written out (text()'s cache)
        self._counts: dict[int, int] | None = None  # _shared()'s answer until the next edit
        self._read_links = self._links()  # as read

    def _touched(self, key: Any) -> None:
        """An edit under the top-level section ``key``: its text is written again at the next
        :meth:`text`. (A draft's edit changes its own section only: a node shared with another section
        is copied before it is changed.)"""
        self._texts.pop(str(key), None)

    def get(self, path: Path_, default: Any = None) -> Any:
        node: Any = self.doc
        for step in path:
            try:
                node = node[step]
            except (KeyError, IndexError, TypeError):
                return default
        return node

    def has(self, path: Path_) -> bool:
        sentinel = object()
        return self.get(path, sentinel) is not sentinel

    # -- changing -----------------------------------------------------------------------------------
    def _shared(self) -> dict[int, int]:
        """How many places hold each mapping and list of the document (more than one: a YAML alias).
        The whole document is walked again only after an edit that adds, replaces or removes a mapping
        or list (``_counts = None``), not for every value typed into a field (~7 ms each in a full file)."""
        if self._counts is not None:
            return self._counts
        counts: dict[int, int] = {}

        def walk(node: Any) -> None:
            if isinstance(node, dict | list):
                counts[id(node)] = counts.get(id(node), 0) + 1
                if counts[id(node)] > 1:
                    return
                for v in node.values() if isinstance(node, dict) else node:
                    walk(v)

        walk(self.doc)
        self._counts = counts
        return counts

    def _links(self) -> dict[str, set[str]]:
        """The top-level sections sharing a mapping or list (a YAML anchor in one, its alias in the
        other), each with the sections it shares one with."""
        reach: dict[int, set[str]] = {}

        def walk(node: Any, section: str) -> None:
            if isinstance(node, dict | list):
                seen = id(node) in reach
                reach.setdefault(id(node), set()).add(section)
                if not seen:
                    for v in node.values() if isinstance(node, dict) else node:
                        walk(v, section)

        for key in self.doc:
            walk(self.doc[key], str(key))
        links: dict[str, set[str]] = {}
        for sections in reach.values():
            if len(sections) > 1:
                for section in sections:
                    links.setdefault(section, set()).update(sections - {section})
        return links

    def _container(self, path: Path_, create: bool) -> Any:
        """The mapping or list holding ``path[-1]``, made on the way if ``create``; a node shared with
        others through a YAML alias (``*may``) is copied first, so an edit changes this place only."""
        counts = self._shared()
        node: Any = self.doc
        for i, step in enumerate(path[:-1]):
            nxt = node.get(step) if isinstance(node, dict) else (node[step] if step < len(node) else None)  # type: ignore[operator]
            if nxt is None:
                if not create:
                    return None
                nxt = CommentedSeq() if isinstance(path[i + 1], int) else CommentedMap()
                if isinstance(step, str) and step in FLOW:
                    nxt.fa.set_flow_style()
                self._put(node, step, nxt)
                self._counts = None
            elif isinstance(nxt, dict | list) and counts.get(id(nxt), 0) > 1:
                own = copy.deepcopy(nxt)
                anchor = getattr(own, "anchor", None)
                if anchor is not None:
                    anchor.value = None
                node[step] = own
                nxt = own
                self._counts = None
                self._touched(path[0])  # the alias written out in full (or the anchor left out)
            node = nxt
        return node

    def _put(self, node: Any, key: str | int, value: Any) -> None:
        if isinstance(node, list):
            node.append(value)
            return
        if node is self.doc and key not in node and key in ORDER:
            before = [k for k in node if k in ORDER and ORDER.index(k) < ORDER.index(str(key))]
            pos = list(node).index(before[-1]) + 1 if before else 0
            node.insert(pos, key, value)
        else:
            node[key] = value

    def set(self, path: Path_, value: Any) -> None:
        """Write ``value`` at ``path`` (mappings made on the way); ``None`` removes the field."""
        if value is None:
            self.remove(path)
            return
        node = self._container(path, create=True)
        key = path[-1]
        if isinstance(value, dict) and not isinstance(value, CommentedMap):
            value = self._map(value, str(key) if isinstance(key, str) else "")
        if isinstance(node, list):
            old = node[key] if isinstance(key, int) and key < len(node) else None
        else:
            old = node.get(key)
        if isinstance(value, dict | list) or isinstance(old, dict | list):
            self._counts = None  # a mapping or list comes or goes: what is shared may change
        if isinstance(node, list):
            assert isinstance(key, int)
            if key < len(node):
                node[key] = value
            else:
                node.append(value)
        elif node.get(key) != value or key not in node:
            self._put(node, key, value)
        else:
            return
        self._touched(path[0])
        self.dirty = True

    def _map(self, value: dict[str, Any], name: str) -> CommentedMap:
        m = CommentedMap()
        for k, v in value.items():
            m[k] = self._map(v, k) if isinstance(v, dict) else v
        if name in FLOW:
            m.fa.set_flow_style()
        return m

    def remove(self, path: Path_) -> None:
        node = self._container(path, create=False)
        key = path[-1]
        if node is None:
            return
        self._counts = None  # what it held is held once less
        if isinstance(node, list):
            assert isinstance(key, int)
            if key < len(node):
                self._touched(path[0])
                del node[key]
                self.dirty = True
        elif key in node:
            self._touched(path[0])
            del node[key]
            self.dirty = True

    def append(self, path: Path_, value: Any) -> int:
        """Add an item to the list at ``path`` (made if missing); returns its index."""
        items = self.get(path)
        if items is None:
            self.set(path, CommentedSeq())
            items = self.get(path)
        else:
            self._container((*path, 0), create=True)  # un-share it if aliased
            items = self.get(path)
        if isinstance(value, dict) and not isinstance(value, CommentedMap):
            value = self._map(value, "")
        items.append(value)
        self._counts = None
        self._touched(path[0])
        self.dirty = True
        return len(items) - 1

    def move(self, path: Path_, old: int, new: int) -> None:
        items = self.get(path)
        if not isinstance(items, list) or not (0 <= old < len(items)) or not (0 <= new < len(items)):
            return
        items.insert(new, items.pop(old))
        self._touched(path[0])
        self.dirty = True

    def order_supporters(self) -> list[int]:
        """Put the 赞助播出 in the order their contracts were signed (they air in that order); returns
        the old index of each item in its new place. Items without a signing date keep their place
        after the dated ones."""
        items = self.get(("supporters",))
        if not isinstance(items, list) or len(items) < 2:
            return list(range(len(items) if isinstance(items, list) else 0))

        def signed(i: int) -> tuple[int, datetime]:
            raw = self.get(("supporters", i, "contract", "signed"))
            moment = signed_moment(raw)
            return (0, moment) if moment is not None else (1, datetime.max)

        order = sorted(range(len(items)), key=lambda i: (signed(i), i))
        if order != list(range(len(items))):
            reordered = [items[i] for i in order]
            items[:] = reordered
            self._touched("supporters")
            self.dirty = True
        return order

    # -- text ------------------------------------------------------------------------------------------
    def _dump(self, key: str) -> str:
        one = CommentedMap()
        one[key] = self.doc[key]
        buf = io.StringIO()
        self._y.dump(one, buf)
        return buf.getvalue()

    def _written(self, key: str, plain: Any) -> str:
        """One top-level section written out, once per edit of it rather than at every :meth:`text`
        (the producer's forms ask for the whole text after each keystroke, and writing YAML is slow):
        an edit through the draft drops the section's text (:meth:`_touched`), and a value changed
        behind the draft's back differs from the one its text was kept with."""
        kept = self._texts.get(key)
        if kept is not None and kept[0] == plain:
            return kept[1]
        text = self._dump(key)
        self._texts[key] = (plain, text)
        return text

    def text(self) -> str:
        """The document as it would be saved: unchanged sections as read, changed ones re-written —
        and with a changed one, every section that shared a node with it as read (each section is
        written on its own: an alias whose anchor was in a section written out would point nowhere)."""
        plains = {str(key): _plain(self.doc[key]) for key in self.doc}
        changed = {k for k, v in plains.items() if k not in self._blocks or v != self._blocks[k].plain}
        todo = list(changed)
        while todo:
            for linked in self._read_links.get(todo.pop(), ()):
                if linked not in changed:
                    changed.add(linked)
                    todo.append(linked)
        parts = [self._header] if self._header else []
        for key in self.doc:
            k = str(key)
            block = self._blocks.get(k)
            if block is not None:
                parts.append(block.lead)
            else:
                note = SECTION_NOTES.get(k)
                if parts and key not in ("show", "season", "format"):
                    parts.append("\n" + (f"# {note}\n" if note else ""))
            parts.append(self._written(k, plains[k]) if k in changed or block is None else block.text)
        parts.append(self._tail)
        out = "".join(parts)
        return out if out.endswith("\n") else out + "\n"

    # -- checking -------------------------------------------------------------------------------------------
    def check(self, *, air_date: date | None = None, text: str | None = None) -> Check:
        """Validate the draft's text with the placements checker (``sponsors check``'s code)."""
        from engine.yamlread import YamlError, compose

        text = self.text() if text is None else text
        filename = str(self.path)
        try:  # composed once, read by the checker and for the places of its issues
            root = compose(text, filename)
        except YamlError:
            root = None  # the checker composes it again and names the error
        try:
            placements: Placements | None = _parse(
                text, filename, base=self.path.resolve().parent, air_date=air_date, composed=root
            )
            issues = list(placements.warnings) if placements is not None else []
        except PlacementError as exc:
            placements, issues = None, list(exc.issues)
        # the air date is checked per episode (the season's air dates), not for the file as a whole
        issues = [i for i in issues if not (i.level == "warning" and i.message.startswith(NO_AIR_DATE))]
        return Check(text, placements, issues, _positions(root))

    # -- saving ----------------------------------------------------------------------------------------------
    @property
    def changed_on_disk(self) -> bool:
        """The file is not what was read (or last saved): someone edited it by hand meanwhile."""
        if self._disk_digest is None:
            return False
        try:
            now = hashlib.sha256(self.path.read_bytes()).hexdigest()
        except FileNotFoundError:
            now = ""
        except OSError:
            return False
        return now != self._disk_digest

    def save(self, *, air_date: date | None = None, force: bool = False) -> Check:
        """Validate the exact text and write it atomically; :class:`SaveRefused` with the reasons when
        it does not validate, or when the file was changed on disk since it was read (``force``
        overwrites that). A full or read-only disk raises ``WriteFailed`` naming the file."""
        check = self.check(air_date=air_date)
        if not check.ok:
            raise SaveRefused(check.issues)
        if not force and self.changed_on_disk:
            raise SaveRefused(
                [
                    Issue(
                        str(self.path),
                        1,
                        1,
                        "文件在打开后被改过（手工编辑？）/ the file was changed on disk since it was opened",
                        "先“重新读取”看看改了什么，再编辑保存 / reload it first",
                    )
                ],
                conflict=True,
            )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = check.text.encode("utf-8")
        with atomic_path(self.path) as tmp:
            tmp.write_bytes(data)
        self._disk_digest = hashlib.sha256(data).hexdigest()
        self._load(check.text)
        self.dirty = False
        return check

    def reload(self) -> None:
        fresh = PlacementsDraft.open(self.path)
        self.doc, self._blocks, self._tail, self._header = (
            fresh.doc,
            fresh._blocks,
            fresh._tail,
            fresh._header,
        )
        self.loaded_text, self._disk_digest, self.dirty = fresh.loaded_text, fresh._disk_digest, False
        self._texts, self._read_links = {}, fresh._read_links

    # -- conveniences for forms ---------------------------------------------------------------------------
    def sponsors(self) -> list[tuple[str, str]]:
        """(id, name) of the registered sponsors, in the file's order."""
        reg = self.get(("sponsors",))
        if not isinstance(reg, dict):
            return []
        return [
            (str(k), str((v or {}).get("name", "")) if isinstance(v, dict) else "") for k, v in reg.items()
        ]

    def items(self, path: Path_) -> Iterator[tuple[int, Any]]:
        seq = self.get(path)
        if isinstance(seq, list):
            yield from enumerate(seq)


def signed_moment(raw: Any) -> datetime | None:
    """A contract's ``signed`` value as the checker reads it (a date, or date and time)."""
    if isinstance(raw, datetime):
        return raw
    if isinstance(raw, date):
        return datetime(raw.year, raw.month, raw.day)
    if isinstance(raw, str):
        for fmt in DATE_FORMATS:
            try:
                return datetime.strptime(raw.strip(), fmt)
            except ValueError:
                pass
    return None
