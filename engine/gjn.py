"""GJN game records (docs/rules.md Appendix A): parse, write, replay, check."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Final, NamedTuple

from .actions import Action, NotAPlay, action_of
from .cards import CardError, Play, PlayError, format_counts, parse_counts, quote
from .errors import GJNError, IllegalAction
from .game import Game
from .preset import PresetError, load_preset
from .seats import SEATS

PRESETS = ("tv_match", "dagang")
#: the largest record read (bytes of UTF-8): a real game is about 3 KB; a bigger one is refused unread
MAX_BYTES: Final = 1 << 20
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_SEAT_TAG = re.compile(r"(Seat|Hand|Count)(\d+)$", re.IGNORECASE)
_HAND_TAGS = {f"Hand{s}" for s in range(1, 7)}
_KNOWN = {"rules", "event", "leader", "seed", "date", "round", "site", "result", "game"}


class Move(NamedTuple):
    """One move line: the seat, its action and its line number in the text (0 when not read from one)."""

    seat: int
    action: Action
    line: int = 0

    def __str__(self) -> str:
        return str(self.action)


class Record:
    """A parsed record: ordered header tags and the move lines (with their line numbers).

    :func:`parse` keeps the moves as two lists (the shared :class:`Action` of each line and its line
    number); ``moves`` makes the :class:`Move` objects when first asked for, and from then on is the
    record's moves (a list the caller may change). :func:`check` never makes them.
    """

    tags: list[tuple[str, str]]
    filename: str
    #: the line of each tag, and the last line holding a tag or a move (1 for an empty text)
    tag_lines: dict[str, int]
    last_line: int
    _moves: list[Move] | None
    _acts: list[Action]
    _lines: list[int]
    #: the rank counts of each [HandN] value read (parse has them: the game is set up without reparsing)
    _hand_counts: dict[str, list[int]]

    def __init__(
        self,
        tags: list[tuple[str, str]] | None = None,
        moves: list[Move] | None = None,
        filename: str = "<string>",
        tag_lines: dict[str, int] | None = None,
        last_line: int = 1,
    ) -> None:
        self.tags = [] if tags is None else tags
        self._moves = [] if moves is None else moves
        self.filename = filename
        self.tag_lines = {} if tag_lines is None else tag_lines
        self.last_line = last_line
        self._acts = []
        self._lines = []
        self._hand_counts = {}

    @property
    def moves(self) -> list[Move]:
        m = self._moves
        if m is None:
            m = self._moves = [Move(a.seat, a, n) for a, n in zip(self._acts, self._lines, strict=True)]
        return m

    @moves.setter
    def moves(self, value: list[Move]) -> None:
        self._moves = value

    def _decisions(self) -> tuple[list[Action], list[int]]:
        """The actions and their line numbers, without making Move objects."""
        m = self._moves
        if m is None:
            return self._acts, self._lines
        return [x.action for x in m], [x.line for x in m]

    def tag(self, name: str) -> str | None:
        for k, v in self.tags:
            if k == name:
                return v
        return None

    def set_tag(self, name: str, value: str) -> None:
        for i, (k, _v) in enumerate(self.tags):
            if k == name:
                self.tags[i] = (k, value)
                return
        self.tags.append((name, value))

    @property
    def rules(self) -> str:
        return self.tag("Rules") or "tv_match"

    @property
    def leader(self) -> int | None:
        v = self.tag("Leader")
        return int(v) if v is not None else None

    def hands(self) -> dict[int, str]:
        return {s: v for s in SEATS if (v := self.tag(f"Hand{s}")) is not None}

    def counts(self) -> dict[int, int]:
        return {s: int(v) for s in SEATS if (v := self.tag(f"Count{s}")) is not None}

    def names(self) -> dict[int, str]:
        return {s: v for s in SEATS if (v := self.tag(f"Seat{s}")) is not None}

    def actions(self) -> list[Action]:
        return list(self._decisions()[0])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return self.tags == other.tags and self._decisions()[0] == other._decisions()[0]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Record(tags={self.tags!r}, moves={self.moves!r}, filename={self.filename!r})"


def _strip_comment(line: str) -> str:
    inq = False
    esc = False
    for i, ch in enumerate(line):
        if esc:
            esc = False
        elif ch == "\\" and inq:
            esc = True
        elif ch == '"':
            inq = not inq
        elif ch == ";" and not inq:
            return line[:i]
    return line


def split_lines(text: str) -> list[str]:
    """Appendix A: lines end at LF; CRLF and a lone CR are read as LF, and nothing else ends a line.

    (``str.splitlines`` also breaks at VT, FF, FS/GS/RS, NEL, U+2028 and U+2029, which are ordinary
    characters inside a comment or a tag value.)
    """
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _check_tag(key: str, value: str, line: int, filename: str) -> list[int] | None:
    """Refuse a bad tag; the rank counts of a [HandN] value (None for the other tags)."""
    m = _SEAT_TAG.match(key) if key[-1].isdigit() else None
    if m:
        kind, num = m.group(1), m.group(2)
        if kind not in ("Seat", "Hand", "Count"):
            raise GJNError(f"tag [{quote(key)[1:-1]}]: write it as {kind.capitalize()}{num}", line, filename)
        if num not in ("1", "2", "3", "4", "5", "6"):
            raise GJNError(f"tag [{quote(key)[1:-1]}]: seats are 1..6", line, filename)
        if kind == "Hand":
            try:
                return parse_counts(value)
            except CardError as e:
                raise GJNError(f"[{key}]: {e}", line, filename) from None
        elif kind == "Count":
            if not value.isdigit() or not 0 <= int(value) <= 36:
                raise GJNError(f"[{key}]: a card count 0..36, got {quote(value)}", line, filename)
        return None
    low = key.lower()
    if low in _KNOWN and key != key[0].upper() + key[1:].lower():
        raise GJNError(f"tag [{key}]: write it as {low.capitalize()}", line, filename)
    if key == "Rules" and value not in PRESETS:
        raise GJNError(f"[Rules]: unknown rules {quote(value)} (expected tv_match or dagang)", line, filename)
    if key == "Leader" and value not in ("1", "2", "3", "4", "5", "6"):
        raise GJNError(f"[Leader]: a seat 1..6, got {quote(value)}", line, filename)
    return None


def _too_large(size: int, filename: str) -> GJNError:
    return GJNError(
        f"the record is {size:,} bytes: a record is at most {MAX_BYTES:,} (1 MiB; a game is about "
        "3 KB), not read",
        0,
        filename,
        zh=f"牌谱过大（{size:,} 字节）：一局牌谱最多 {MAX_BYTES:,} 字节（1 MiB，一局约 3 KB），未读入",
    )


def read(path: str | Path) -> str:
    """A record file's text, for :func:`parse`. Raises :class:`GJNError` (``file:0`` or the line of a bad
    byte) when the file cannot be read, is over :data:`MAX_BYTES` (refused from its size, unread)
    or is not UTF-8 (a byte-order mark is allowed). Every command that reads records reads them here."""
    name = str(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_BYTES:
                raise _too_large(size, name)
            data = f.read(MAX_BYTES + 1)  # a file that grew since: still no more than this
    except OSError as e:
        why = e.strerror or str(e)
        raise GJNError(f"cannot read the record: {why}", 0, name, zh=f"读不到牌谱：{why}") from None
    if len(data) > MAX_BYTES:
        raise _too_large(len(data), name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise GJNError("not UTF-8 text", line, name, zh="牌谱应为 UTF-8 文本") from None


def check_size(text: str, filename: str = "<string>") -> None:
    """Refuse a record text over :data:`MAX_BYTES` (UTF-8) before any work is done on it."""
    n = len(text)
    if n > MAX_BYTES // 4 and (n > MAX_BYTES or len(text.encode("utf-8")) > MAX_BYTES):
        raise _too_large(len(text.encode("utf-8", "replace")) if n <= 4 * MAX_BYTES else n, filename)


#: the Action of each move line read, by the line as written (records repeat them); only lines that are
#: moves are kept, and it is cleared when it grows past _MOVES_MAX
_MOVES: dict[str, Action] = {}
_MOVES_MAX: Final = 50000


def parse(text: str, filename: str = "<string>") -> Record:
    """Parse GJN text. Raises :class:`GJNError` (with ``.line``) on malformed input, and on a record over
    :data:`MAX_BYTES` before reading any of it.

    Lines end at LF only (CRLF and CR read as LF, :func:`split_lines`). A move whose cards are card
    symbols but not a play (G3.2, ``1 TTJ``) is not malformed: its action is a
    :class:`~engine.game.NotAPlay`, which :func:`replay` reports as an illegal move.
    """
    check_size(text, filename)
    rec = Record(filename=filename)
    rec._moves = None  # made from _acts and _lines when asked for
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = split_lines(text) if "\r" in text else text.split("\n")
    n = len(lines)
    i = 0
    last = 1
    seen: set[str] = set()
    total = [0] * 15
    while i < n:  # the header: tag lines (and blank or comment lines) up to the first move
        raw = lines[i]
        line = (_strip_comment(raw) if ";" in raw else raw).strip()
        if not line:
            i += 1
            continue
        if line[0] != "[":
            break
        i += 1
        last = i
        _tag_line(rec, line, i, seen, total)
    acts = rec._acts
    nums = rec._lines
    known = _MOVES
    while i < n:  # the moves: a line seen before is one dict look-up
        raw = lines[i]
        i += 1
        a = known.get(raw)
        if a is None:
            line = (_strip_comment(raw) if ";" in raw else raw).strip()
            if not line:
                continue
            if line[0] == "[":
                raise GJNError("header tags must come before the moves", i, filename)
            a = _move(line, i, filename)
            if type(a) is Action:
                if len(known) > _MOVES_MAX:
                    known.clear()
                known[raw] = a
        acts.append(a)
        nums.append(i)
    rec.last_line = nums[-1] if nums else last
    return rec


def _tag_line(rec: Record, line: str, lineno: int, seen: set[str], total: list[int]) -> None:
    """The tags of one header line (``[Name "value"]``, possibly several)."""
    filename = rec.filename
    if line[-1] == "]" and line[-2] == '"' and line.count('"') == 2 and "\\" not in line:
        # the usual line, one tag with a plain value: read without the regular expression
        q = line.index('"')
        head = line[1:q]
        key = head.strip()
        if key and head[-1].isspace() and key.isascii() and key[0].isalpha() and key.isidentifier():
            _add_tag(rec, key, line[q + 1 : -2], lineno, seen, total)
            return
    pos = 0
    while pos < len(line):
        if line[pos].isspace():
            pos += 1
            continue
        m = _TAG.match(line, pos)
        if not m:
            raise GJNError(
                f'malformed tag near {quote(line[pos : pos + 20])} (expected [Name "value"])',
                lineno,
                filename,
            )
        _add_tag(rec, m.group(1), m.group(2).replace('\\"', '"').replace("\\\\", "\\"), lineno, seen, total)
        pos = m.end()


def _add_tag(rec: Record, key: str, value: str, lineno: int, seen: set[str], total: list[int]) -> None:
    filename = rec.filename
    if key in seen:
        raise GJNError(f"duplicate tag [{quote(key)[1:-1]}]", lineno, filename)
    counts = _check_tag(key, value, lineno, filename)
    seen.add(key)
    rec.tags.append((key, value))
    rec.tag_lines[key] = lineno
    if counts is not None:  # a [HandN] tag: the pack (G2.1), and the tag that goes over it is named
        rec._hand_counts[value] = counts
        for r in range(15):
            c = counts[r]
            if c:
                total[r] += c
                lim = 4 if r >= 13 else 16
                if total[r] > lim:
                    raise GJNError(
                        f"the [Hand] tags hold {total[r]} cards of rank {'3456789TJQKA2BR'[r]}; "
                        f"the pack has {lim}",
                        lineno,
                        filename,
                    )


def _move(line: str, lineno: int, filename: str) -> Action:
    """The action of a move line (stripped, not blank) read for the first time."""
    parts = line.split()
    if len(parts) != 2:
        raise GJNError(f"a move is '<seat> <cards|pass|yield>', got {quote(line)}", lineno, filename)
    if parts[0] not in ("1", "2", "3", "4", "5", "6"):
        raise GJNError(f"seat must be 1..6, got {quote(parts[0])}", lineno, filename)
    try:
        return Action.parse(line)
    except CardError as e:
        raise GJNError(f"bad cards {quote(parts[1])}: {e}", lineno, filename) from None
    except PlayError:
        # well-formed cards that are not a play (G3.2, `1 TTJ`): an illegal move, reported by
        # replay/check with its move number; parsing goes on, so later lines are still checked
        return NotAPlay(int(parts[0]), parts[1])
    except ValueError as e:
        raise GJNError(str(e), lineno, filename) from None


def _quote(v: str) -> str:
    if "\\" not in v and '"' not in v:
        return v
    return v.replace("\\", "\\\\").replace('"', '\\"')


def write(record: Record) -> str:
    """GJN text of a record (tags one per line, then one move per line)."""
    return _text(record.tags, [m.action for m in record.moves])


def write_game(game: Game, tags: list[tuple[str, str]] | None = None) -> str:
    """``write(from_game(game, tags))``, without building the record (self-play writes many)."""
    out = _tag_lines(_game_tags(game, tags))
    lines = _CODE_LINES
    for c in game._codes:
        w = lines.get(c)
        if w is None:
            if len(lines) > _LINES_MAX:
                lines.clear()
            w = lines[c] = str(action_of(c))
        out.append(w)
    return "\n".join(out) + "\n"


_KIND_LINES = {k: tuple(f"{s} {k}" for s in range(7)) for k in ("pass", "yield", "revolt")}
#: each seat's move lines by play, kept across records (self-play writes thousands of records whose plays
#: repeat); cleared when it grows past _LINES_MAX
_LINES: tuple[dict[Play, str], ...] = ({}, {}, {}, {}, {}, {}, {})
_LINES_MAX = 20000
#: the move line of each move code, kept across records (write_game)
_CODE_LINES: dict[int, str] = {}


def _tag_lines(tags: list[tuple[str, str]]) -> list[str]:
    out = [f'[{k} "{_quote(v)}"]' for k, v in tags]
    if out:
        out.append("")
    return out


def _text(tags: list[tuple[str, str]], actions: list[Action]) -> str:
    out = _tag_lines(tags)
    lines = _LINES
    kinds = _KIND_LINES
    for a in actions:
        pl = a.cards
        if pl is None:  # pass, yield, revolt; a NotAPlay is written as read
            out.append(str(a) if type(a) is NotAPlay else kinds[a.kind][a.seat])
        else:
            seen = lines[a.seat]
            w = seen.get(pl)
            if w is None:
                if len(seen) > _LINES_MAX:
                    seen.clear()
                w = seen[pl] = f"{a.seat} {pl}"
            out.append(w)
    return "\n".join(out) + "\n"


def game_from_record(record: Record) -> Game:
    """The starting position a record describes (no moves applied)."""
    lines = record._decisions()[1]
    line1 = lines[0] if lines else 1
    try:
        preset = load_preset(record.rules)
    except PresetError as e:  # pragma: no cover - presets ship with the engine
        raise GJNError(str(e), 1, record.filename) from None
    leader = record.leader
    if leader is None:
        raise GJNError('missing [Leader "seat"] (G12: who leads first)', line1, record.filename)
    counts = record.counts()
    try:
        hs: list[list[int] | None] = [None] * 7
        read = record._hand_counts
        for s, v in record.hands().items():
            c = read.get(v)  # parse read this hand already
            hs[s] = list(c) if c is not None else parse_counts(v)
        return Game.of_counts(preset, hs, leader, counts or None)
    except (CardError, ValueError) as e:
        line = min((n for k, n in record.tag_lines.items() if k.startswith(("Hand", "Count"))), default=1)
        raise GJNError(str(e), line, record.filename) from None


def replay(record: Record, undo: bool = True) -> Game:
    """Replay every move; raises :class:`IllegalAction` with ``move``, ``line`` and ``seat`` set.
    ``undo=False`` (checking) keeps nothing for ``Game.pop``."""
    acts, lines = record._decisions()
    g = game_from_record(record)
    i = 0
    try:
        for a in acts:
            g.push(a, undo)
            i += 1
    except IllegalAction as e:
        e.move = i + 1
        e.line = lines[i]
        e.seat = acts[i].seat
        raise
    return g


def from_game(game: Game, tags: list[tuple[str, str]] | None = None) -> Record:
    """A record of a game from its start: Rules, the dealt hands (if known), Leader, then the moves."""
    rec = Record(tags=_game_tags(game, tags))
    rec.moves = [Move(a.seat, a) for a in game.moves]
    return rec


def _game_tags(game: Game, tags: list[tuple[str, str]] | None) -> list[tuple[str, str]]:
    out = [("Rules", game.preset.name)]
    for k, v in tags or []:
        if k not in ("Rules", "Leader") and not k.startswith("Hand"):
            out.append((k, v))
    dealt = game._dealt_hands
    for s in SEATS:
        h = dealt[s]
        if h is not None:
            out.append((f"Hand{s}", format_counts(h)))
        elif game.dealt_count(s) != 36:
            out.append((f"Count{s}", str(game.dealt_count(s))))
    out.append(("Leader", str(game.leader)))
    return out


def check(text: str, filename: str = "<string>", partial: bool = False) -> dict[str, Any]:
    """Replay a record: the ``--json`` object of Appendix A. Raises :class:`GJNError` if malformed.

    With ``partial`` a record of a game still under way is not an error: see :func:`check_record`.
    """
    rec = parse(text, filename)
    return check_record(rec, partial)


def check_record(rec: Record, partial: bool = False) -> dict[str, Any]:
    """Appendix A's object for a parsed record.

    ``partial=False``: ``ok``; on failure ``error`` {``move``, ``line``, ``seat``, ``rule``,
    ``message``} (a record that stops before the game is over is refused as 未完, rule G10.4 at move
    n+1); on success ``finish_order``, ``titles``, ``team_points``, ``quan_san``, ``opened``.

    ``partial=True`` (the referee's mid-game check): an illegal move is the same ``error``; otherwise
    ``ok`` is true and the object says where the game stands: ``over``, ``moves``, ``to_act`` (the
    seat whose decision it is, or null), ``options`` (what it may do: play, pass, yield, revolt),
    ``burns`` (seats that may burn the top play now, G7), ``top`` ({``seat``, ``play``} or null),
    ``titles`` (seat -> title decided so far), ``finish_order`` (seats played out, in order),
    ``cards_left``, ``wutou`` (无头 seats, G8), ``burner``, ``four_way`` (G10.2), ``opened`` (G6.5);
    once the game is over also ``team_points`` and ``quan_san``.
    """
    try:
        g = replay(rec, undo=False)
    except IllegalAction as e:
        return {
            "ok": False,
            "error": {"move": e.move, "line": e.line, "seat": e.seat, "rule": e.rule, "message": e.message},
        }
    lines = rec._decisions()[1]
    if partial:
        return _standing(g, len(lines))
    if not g.is_over():
        last = lines[-1] if lines else rec.last_line
        seat = g.pending_seat
        n = len(lines) + 1
        return {
            "ok": False,
            "error": {
                "move": n,
                "line": last,
                "seat": seat,
                "rule": "G10.4",
                "message": f"the record ends before the game is over (unfinished): seat {seat} is to act "
                f"(move {n}) / 记录在本局结束前中止（未完）：应由{seat}号行动（第{n}步）",
            },
        }
    out: dict[str, Any] = {"ok": True}
    out.update(g.result().to_json())
    return out


def _standing(g: Game, moves: int) -> dict[str, Any]:
    over = g.is_over()
    seat = g.pending_seat
    top = g.last_play
    burns = [s for s in SEATS if s != seat and "burn" in g.options(s)] if not over and top else []
    out: dict[str, Any] = {
        "ok": True,
        "over": over,
        "moves": moves,
        "to_act": seat,
        "options": sorted(g.options(seat) - {"burn"}) if seat is not None else [],
        "burns": burns,
        "top": {"seat": top[0], "play": str(top[1])} if top else None,
        "titles": {str(s): t for s, t in sorted(g.titles_so_far().items())},
        "finish_order": g.result().finish_order if over else g.played_out(),
        "cards_left": {str(s): g.cards_left(s) for s in SEATS},
        "wutou": [s for s in SEATS if g.is_wutou(s)],
        "burner": g.burner,
        "four_way": g.four_way,
        "opened": g.opened,
    }
    if over:
        r = g.result()
        out["team_points"] = dict(r.team_points)
        out["quan_san"] = r.quan_san
    return out
