"""GJN game records (RULES.md Appendix A): parse, write, replay, check."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .cards import CardError, Play, PlayError, format_counts, parse_counts
from .errors import GJNError, IllegalAction
from .game import SEATS, Action, Game, NotAPlay
from .preset import PresetError, load_preset

PRESETS = ("tv_match", "dagang")
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_SEAT_TAG = re.compile(r"(Seat|Hand|Count)(\d+)$", re.IGNORECASE)
_KNOWN = {"rules", "event", "leader", "seed", "date", "round", "site", "result", "game"}


class Move(NamedTuple):
    """One move line: the seat, its action and its line number in the text (0 when not read from one)."""

    seat: int
    action: Action
    line: int = 0

    def __str__(self) -> str:
        return str(self.action)


@dataclass
class Record:
    """A parsed record: ordered header tags and the move lines (with their line numbers)."""

    tags: list[tuple[str, str]] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    filename: str = "<string>"

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
        return [m.action for m in self.moves]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return self.tags == other.tags and self.actions() == other.actions()

    __hash__ = None  # type: ignore[assignment]


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


def _check_tag(key: str, value: str, line: int, filename: str) -> None:
    m = _SEAT_TAG.match(key)
    if m:
        kind, num = m.group(1), m.group(2)
        if kind not in ("Seat", "Hand", "Count"):
            raise GJNError(f"tag [{key}]: write it as {kind.capitalize()}{num}", line, filename)
        if num not in ("1", "2", "3", "4", "5", "6"):
            raise GJNError(f"tag [{key}]: seats are 1..6", line, filename)
        if kind == "Hand":
            try:
                parse_counts(value)
            except CardError as e:
                raise GJNError(f"[{key}]: {e}", line, filename) from None
        elif kind == "Count":
            if not value.isdigit() or not 0 <= int(value) <= 36:
                raise GJNError(f"[{key}]: a card count 0..36, got {value!r}", line, filename)
        return
    low = key.lower()
    if low in _KNOWN and key != key[0].upper() + key[1:].lower():
        raise GJNError(f"tag [{key}]: write it as {low.capitalize()}", line, filename)
    if key == "Rules" and value not in PRESETS:
        raise GJNError(f"[Rules]: unknown rules {value!r} (expected tv_match or dagang)", line, filename)
    if key == "Leader" and value not in ("1", "2", "3", "4", "5", "6"):
        raise GJNError(f"[Leader]: a seat 1..6, got {value!r}", line, filename)


def parse(text: str, filename: str = "<string>") -> Record:
    """Parse GJN text. Raises :class:`GJNError` (with ``.line``) on malformed input.

    A move whose cards are card symbols but not a play (G3.2, ``1 TTJ``) is not malformed: its
    action is a :class:`~engine.game.NotAPlay`, which :func:`replay` reports as an illegal move.
    """
    rec = Record(filename=filename)
    seen: set[str] = set()
    if text.startswith("\ufeff"):
        text = text[1:]
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw).strip()
        if not line:
            continue
        if line.startswith("["):
            if rec.moves:
                raise GJNError("header tags must come before the moves", lineno, filename)
            pos = 0
            while pos < len(line):
                if line[pos].isspace():
                    pos += 1
                    continue
                m = _TAG.match(line, pos)
                if not m:
                    raise GJNError(
                        f'malformed tag near {line[pos : pos + 20]!r} (expected [Name "value"])',
                        lineno,
                        filename,
                    )
                key, value = m.group(1), m.group(2).replace('\\"', '"').replace("\\\\", "\\")
                if key in seen:
                    raise GJNError(f"duplicate tag [{key}]", lineno, filename)
                _check_tag(key, value, lineno, filename)
                seen.add(key)
                rec.tags.append((key, value))
                pos = m.end()
            continue
        parts = line.split()
        if len(parts) != 2:
            raise GJNError(f"a move is '<seat> <cards|pass|yield>', got {line!r}", lineno, filename)
        if parts[0] not in ("1", "2", "3", "4", "5", "6"):
            raise GJNError(f"seat must be 1..6, got {parts[0]!r}", lineno, filename)
        try:
            action = Action.parse(line)
        except CardError as e:
            raise GJNError(f"bad cards {parts[1]!r}: {e}", lineno, filename) from None
        except PlayError:
            # well-formed cards that are not a play (G3.2, `1 TTJ`): an illegal move, reported by
            # replay/check with its move number; parsing goes on, so later lines are still checked
            action = NotAPlay(int(parts[0]), parts[1])
        except ValueError as e:
            raise GJNError(str(e), lineno, filename) from None
        rec.moves.append(Move(action.seat, action, lineno))
    hands = rec.hands()
    if hands:
        total = [0] * 15
        for h in hands.values():
            for r, c in enumerate(parse_counts(h)):
                total[r] += c
        for r, c in enumerate(total):
            lim = 4 if r >= 13 else 16
            if c > lim:
                sym = "3456789TJQKA2BR"[r]
                raise GJNError(
                    f"the [Hand] tags hold {c} cards of rank {sym}; the pack has {lim}",
                    _tag_line(text, "Hand"),
                    filename,
                )
    return rec


def _tag_line(text: str, prefix: str) -> int:
    for i, raw in enumerate(text.splitlines(), start=1):
        if "[" + prefix in raw:
            return i
    return 1


def _quote(v: str) -> str:
    return v.replace("\\", "\\\\").replace('"', '\\"')


def write(record: Record) -> str:
    """GJN text of a record (tags one per line, then one move per line)."""
    return _text(record.tags, [m.action for m in record.moves])


def write_game(game: Game, tags: list[tuple[str, str]] | None = None) -> str:
    """``write(from_game(game, tags))``, without building the record (self-play writes many)."""
    return _text(_game_tags(game, tags), game._moves)


def _text(tags: list[tuple[str, str]], actions: list[Action]) -> str:
    out = [f'[{k} "{_quote(v)}"]' for k, v in tags]
    if out:
        out.append("")
    words: dict[Play, str] = {}  # each distinct play formatted once: a record repeats most of them
    get = words.get
    add = out.append
    for a in actions:
        pl = a.cards
        if pl is None:  # pass, yield, revolt; a NotAPlay is written as read
            add(str(a) if type(a) is NotAPlay else f"{a.seat} {a.kind}")
        else:
            w = get(pl)
            if w is None:
                w = words[pl] = str(pl)
            add(f"{a.seat} {w}")
    return "\n".join(out) + "\n"


def game_from_record(record: Record) -> Game:
    """The starting position a record describes (no moves applied)."""
    line1 = record.moves[0].line if record.moves else 1
    try:
        preset = load_preset(record.rules)
    except PresetError as e:  # pragma: no cover - presets ship with the engine
        raise GJNError(str(e), 1, record.filename) from None
    leader = record.leader
    if leader is None:
        raise GJNError('missing [Leader "seat"] (G12: who leads first)', line1, record.filename)
    hands: dict[int, Any] = dict(record.hands())
    counts = record.counts()
    try:
        return Game(preset, hands=hands or None, leader=leader, counts=counts or None)
    except (CardError, ValueError) as e:
        raise GJNError(
            str(e), _tag_line("\n".join(f"[{k}" for k, _ in record.tags), "Hand"), record.filename
        ) from None


def replay(record: Record) -> Game:
    """Replay every move; raises :class:`IllegalAction` with ``move``, ``line`` and ``seat`` set."""
    g = game_from_record(record)
    for i, m in enumerate(record.moves, start=1):
        try:
            g.push(m.action)
        except IllegalAction as e:
            e.move = i
            e.line = m.line
            e.seat = m.seat
            raise
    return g


def from_game(game: Game, tags: list[tuple[str, str]] | None = None) -> Record:
    """A record of a game from its start: Rules, the dealt hands (if known), Leader, then the moves."""
    rec = Record(tags=_game_tags(game, tags))
    rec.moves = [Move(a.seat, a) for a in game._moves]
    return rec


def _game_tags(game: Game, tags: list[tuple[str, str]] | None) -> list[tuple[str, str]]:
    out = [("Rules", game.preset.name)]
    for k, v in tags or []:
        if k not in ("Rules", "Leader") and not k.startswith("Hand"):
            out.append((k, v))
    for s in SEATS:
        h = game.dealt_hand_counts(s)
        if h is not None:
            out.append((f"Hand{s}", format_counts(h)))
        elif game.dealt_count(s) != 36:
            out.append((f"Count{s}", str(game.dealt_count(s))))
    out.append(("Leader", str(game.leader)))
    return out


def check(text: str, filename: str = "<string>") -> dict[str, Any]:
    """Replay a record: the ``--json`` object of Appendix A. Raises :class:`GJNError` if malformed."""
    rec = parse(text, filename)
    return check_record(rec)


def check_record(rec: Record) -> dict[str, Any]:
    try:
        g = replay(rec)
    except IllegalAction as e:
        return {
            "ok": False,
            "error": {"move": e.move, "line": e.line, "seat": e.seat, "rule": e.rule, "message": e.message},
        }
    if not g.is_over():
        last = rec.moves[-1].line if rec.moves else 0
        return {
            "ok": False,
            "error": {
                "move": len(rec.moves) + 1,
                "line": last,
                "seat": g.pending_seat,
                "rule": "G10.4",
                "message": f"the record ends before the game is over (seat {g.pending_seat} is to act) / "
                f"记录在本局结束前中止（应由{g.pending_seat}号行动）",
            },
        }
    out: dict[str, Any] = {"ok": True}
    out.update(g.result().to_json())
    return out
