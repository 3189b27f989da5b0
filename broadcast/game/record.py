"""Changing the record of the game in play: undo, redo, corrections, and the hands entered at the deal.

Every one is a journaled action carrying the operator's reason, and each leaves an entry in
``state.game.history``, so what was first keyed and why it changed is never lost::

    store.dispatch("game.undo", {"reason": "录入错误"})
    store.dispatch("game.redo", {"reason": "撤销错了"})
    store.dispatch("game.seek", {"move": 3})      # step through the record (a rehearsal): to move 3
    store.dispatch("game.correct", {"move": 12, "line": "4 JJJJJ", "reason": "裁判改判"})
    store.dispatch("game.correct", {"move": 12, "delete": True, "reason": "多录了一步"})
    store.dispatch("game.correct", {"move": 12, "insert": True, "line": "5 pass", "reason": "漏录"})
    store.dispatch("game.hands", {"seat": 3, "cards": "RRBB2222AAAA…"})   # 36 cards (G2.1)
    store.dispatch("game.hands", {"seat": 3, "cards": "…", "reason": "录入错误"})  # after play: re-checked
    store.dispatch("game.leader", {"leader": 4, "reason": "上班座位录错"})      # the 上班 seat (G12.1)

A correction replaces (or deletes, or inserts) one decision and the engine re-checks every later one in
order: those that still stand are kept, and from the first that no longer stands the rest leave the
record into ``state.game.dropped`` (the first with the engine's clause) for the operator to re-key.
A corrected decision that is itself illegal is refused with its clause and nothing changes. The 上班
seat is corrected the same way: the record is played again from the new first leader and what no longer
stands is dropped.
"""

from __future__ import annotations

from typing import Any

import engine
from broadcast.core import ActionRefused, Actions, Context, Payload, State
from broadcast.errors import count
from broadcast.game.adapter import new_game, parse_move
from broadcast.game.live import forget, live_game, record_key
from broadcast.game.projection import project
from engine.game import SEATS

ACTIONS = Actions()
action = ACTIONS.action

PACK = {r: 16 for r in "3456789TJQKA2"} | {"B": 4, "R": 4}


def _reason(payload: Payload, required: bool) -> str:
    reason = str(payload.get("reason", "")).strip()
    if required and not reason:
        raise ActionRefused(
            "reason", "请写明原因（如：录入错误、裁判改判）", "give the reason (e.g. typo, referee's ruling)"
        )
    return reason


def _history(state: State, ctx: Context, kind: str, **fields: Any) -> None:
    entry = {"seq": ctx.seq, "ts": ctx.ts, "kind": kind, "move": 0, "line": "", "new_line": "", "reason": ""}
    entry.update(fields)
    state["game"]["history"] = [*state["game"]["history"], entry]


def not_saved(state: State) -> None:
    """Refuses (rule ``season``) a change to the game on the table once it is saved to the season; the
    console asks it before it opens a dialog for one (a reason typed for nothing, then refused)."""
    link = state["match"]["season"]
    if link and any(s["game_no"] == state["table"]["game_no"] for s in link["saved"]):
        raise ActionRefused(
            "season",
            f"第{state['table']['game_no']}局已存入赛季，不能再改",
            f"game {state['table']['game_no']} is saved to the season: it cannot be changed any more",
        )


def _refused(exc: Any) -> ActionRefused:
    return ActionRefused(exc.rule, exc.zh, exc.en)


@action("game.undo")
def game_undo(state: State, payload: Payload, ctx: Context) -> None:
    """Take back the last decision of the current game: {reason}. It can be played again by game.redo."""
    reason = _reason(payload, required=False)
    not_saved(state)
    live = live_game(state, ctx)
    if not live.game.moves:
        raise ActionRefused("undo", "本局还没有出牌，无法撤销", "nothing to undo in this game")
    undone = str(live.game.pop())
    n = len(state["game"]["record"])
    state["game"]["record"] = state["game"]["record"][:-1]
    state["game"]["redo"] = [*state["game"]["redo"], undone]
    _history(state, ctx, "undo", move=n, line=undone, reason=reason)
    live.key = record_key(state)
    project(state, live)


@action("game.redo")
def game_redo(state: State, payload: Payload, ctx: Context) -> None:
    """Play the last undone decision again (checked by the engine again): {reason}."""
    reason = _reason(payload, required=False)
    redo = state["game"]["redo"]
    if not redo:
        raise ActionRefused("redo", "没有可以重做的一步", "nothing to redo")
    live = live_game(state, ctx)
    move = engine.Action.parse(redo[-1])
    try:
        live.game.push(move)
    except engine.IllegalAction as exc:
        raise _refused(exc) from exc
    state["game"]["record"] = [*state["game"]["record"], str(move)]
    state["game"]["redo"] = redo[:-1]
    _history(state, ctx, "redo", move=len(state["game"]["record"]), line=str(move), reason=reason)
    live.key = record_key(state)
    project(state, live)


@action("game.seek")
def game_seek(state: State, payload: Payload, ctx: Context) -> None:
    """Step the game to decision ``move`` (0 = before the first): {move}. Back, the decisions after it go
    to ``redo`` (python-chess's pop, as Ctrl+Z does one); forward, they are played again from ``redo``
    (each checked by the engine again). Stepping through a record corrects nothing: no history entry,
    no reason. A new decision typed at ``move`` drops the rest (game.play clears ``redo``)."""
    not_saved(state)
    n = payload.get("move")
    g = state["game"]
    record: list[str] = list(g["record"])
    redo: list[str] = list(g["redo"])
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= len(record) + len(redo):
        total = len(record) + len(redo)
        raise ActionRefused("seek", f"没有第{n}步（本局共{total}步）", f"no move {n} (the game has {total})")
    live = live_game(state, ctx)
    while len(record) > n:
        redo.append(str(live.game.pop()))
        record.pop()
    while len(record) < n:
        move = engine.Action.parse(redo[-1])
        try:
            live.game.push(move)
        except engine.IllegalAction as exc:
            raise _refused(exc) from exc
        record.append(str(move))
        redo.pop()
    g["record"], g["redo"] = record, redo
    live.key = record_key(state)
    project(state, live)


@action("game.correct")
def game_correct(state: State, payload: Payload, ctx: Context) -> None:
    """Correct decision ``move`` (1-based): {move, line, reason} replaces it, {move, delete: true, reason}
    removes it, {move, insert: true, line, reason} inserts a forgotten one before it (``move`` one past
    the end appends). The engine re-checks the rest; see the module doc."""
    reason = _reason(payload, required=True)
    not_saved(state)
    record: list[str] = list(state["game"]["record"])
    n = payload.get("move")
    delete, insert = bool(payload.get("delete")), bool(payload.get("insert"))
    last = len(record) + (1 if insert else 0)
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= last:
        raise ActionRefused(
            "correct", f"没有第{n}步（本局共{len(record)}步）", f"no move {n} (the game has {len(record)})"
        )
    if delete and insert:
        raise ActionRefused("correct", "不能同时删除和插入", "delete and insert together")
    game = new_game(state)
    for line in record[: n - 1]:  # these stood before and stand now
        game.push(engine.Action.parse(line))
    new_record = record[: n - 1]
    new_line = ""
    if not delete:
        if "line" not in payload:
            raise ActionRefused("correct", "更正需要新的一步（line）", "a correction needs the new line")
        move = parse_move(payload)
        if game.is_over():
            raise ActionRefused("G10", "此处本局已结束", "the game is already over at that point")
        try:
            game.push(move)
        except engine.IllegalAction as exc:
            raise _refused(exc) from exc
        new_line = str(move)
        new_record.append(new_line)
    rest = record[n - 1 :] if insert else record[n:]
    first_rest = n if insert else n + 1  # the original number of rest[0]
    dropped = _replay_rest(game, rest, first_rest, new_record)
    old_line = "" if insert else record[n - 1]
    kind = "delete" if delete else "insert" if insert else "correct"
    g = state["game"]
    g["record"] = new_record
    g["redo"] = []
    g["dropped"] = dropped
    _history(state, ctx, kind, move=n, line=old_line, new_line=new_line, reason=reason, dropped=len(dropped))
    forget(ctx)
    project(state, live_game(state, ctx))


def _replay_rest(game: Any, rest: list[str], first: int, new_record: list[str]) -> list[dict[str, Any]]:
    """Push ``rest`` (numbered from ``first``) onto ``game``: those that stand go to ``new_record``;
    from the first that no longer stands, every one is dropped (the first with the engine's clause)."""
    dropped: list[dict[str, Any]] = []
    first_rest = first
    for i, line in enumerate(rest):
        number = first_rest + i
        if dropped:
            dropped.append({"number": number, "line": line, "rule": "", "zh": "", "en": ""})
            continue
        if game.is_over():
            dropped.append(
                {
                    "number": number,
                    "line": line,
                    "rule": "G10",
                    "zh": "更正后本局已在此前结束",
                    "en": "the game is over",
                }
            )
            continue
        try:
            game.push(engine.Action.parse(line))
        except engine.IllegalAction as exc:
            dropped.append({"number": number, "line": line, "rule": exc.rule, "zh": exc.zh, "en": exc.en})
            continue
        new_record.append(line)
    return dropped


@action("game.leader")
def game_leader(state: State, payload: Payload, ctx: Context) -> None:
    """Correct the 上班 seat of the game in play (G12.1): {leader: 1–6, reason, undo?}. The engine plays the
    record again from the new first leader; what no longer stands is dropped (see the module doc). With
    ``undo`` (Ctrl+Z right after a 上班 correction, nothing keyed since) the correction before is undone:
    the record as it stood before it — what it kept and what it dropped, in order — is played again from
    the seat given back, so that nothing the correction dropped is lost."""
    reason = _reason(payload, required=True)
    not_saved(state)
    g = state["game"]
    if g["leader"] is None:
        raise ActionRefused("game", "还没有开局", "no game started")
    leader = payload.get("leader")
    if leader not in SEATS or isinstance(leader, bool):
        raise ActionRefused("G12.1", "上班座位应为 1–6", "the first leader's seat is 1..6")
    old = int(g["leader"])
    if leader == old:
        raise ActionRefused("G12.1", f"上班座位已是 {old} 号", f"seat {old} leads already")
    undo = bool(payload.get("undo"))
    last = g["history"][-1] if g["history"] else None
    if undo and (
        last is None or last["kind"] != "leader" or last.get("undo") or last["move"] != len(g["record"])
    ):
        raise ActionRefused(
            "G12.1",
            "上一步不是上班座位的更正（或之后又录了出牌）：没有可撤销的上班更正",
            "the last thing done is not a correction of the first leader (or a decision came after it):"
            " nothing to undo",
        )
    g["leader"] = int(leader)
    game = new_game(state)
    new_record: list[str] = []
    before = list(g["record"]) + ([str(d["line"]) for d in g["dropped"]] if undo else [])
    dropped = _replay_rest(game, before, 1, new_record)
    g["record"] = new_record
    g["redo"] = []
    g["dropped"] = dropped
    _history(
        state,
        ctx,
        "leader",
        move=len(new_record),
        line=str(old),
        new_line=str(leader),
        reason=reason,
        dropped=len(dropped),
        undo=undo,
    )
    forget(ctx)
    project(state, live_game(state, ctx))


@action("game.hands")
def game_hands(state: State, payload: Payload, ctx: Context) -> None:
    """The hands dealt, entered at the deal: {hands: [six card strings, '' unknown]} or {seat, cards}
    (one seat at a time), {reason?}. Each hand holds the seat's dealt cards (36, G2.1), no rank more
    than the pack has, all together no more than the pack (216). The record so far is replayed with
    them (possession is checked from now on); a hand that contradicts it is refused naming the move and
    the engine's clause. Once play has started, or where a hand already known changes, it is a
    correction: the reason is required, and the history keeps the hands as they were (``before``) so
    that it can be undone (the same action with those hands, checked again)."""
    g = state["game"]
    if g["leader"] is None:
        raise ActionRefused("game", "还没有开局", "no game started")
    not_saved(state)
    hands = list(g["hands"]) if g["hands"] else [""] * 6
    if "hands" in payload:
        given = payload["hands"]
        if not isinstance(given, list) or len(given) != 6:
            raise ActionRefused(
                "G2.1", "hands 应为六手牌（座位1–6，未知的写空串）", "hands must list six hands"
            )
        updates = {s: str(h or "") for s, h in zip(SEATS, given, strict=True)}
    else:
        seat = payload.get("seat")
        if seat not in SEATS:
            raise ActionRefused("G1.1", f"没有 {seat} 号座位", f"no seat {seat}")
        updates = {int(seat): str(payload.get("cards", ""))}
    dealt = {s: (g["counts"][s - 1] if g["counts"] else 36) for s in SEATS}
    if g["seed"] is not None and not g["hands"]:  # a seeded deal: its hands stand for the unknown ones
        hands = [engine.format_cards(h) for h in engine.deal(g["seed"])]
    known = list(hands)  # the hands as they stand before this action
    for seat, text in updates.items():
        if not text.strip():
            hands[seat - 1] = ""
            continue
        try:
            counts = engine.cards.parse_counts(text.upper().replace("10", "T"))
        except engine.CardError as exc:
            raise ActionRefused(
                "G2.4", f"{seat}号手牌有看不懂的牌：{exc}", f"seat {seat}: bad cards: {exc}"
            ) from exc
        total = sum(counts)
        if total != dealt[seat]:
            raise ActionRefused(
                "G2.1",
                f"{seat}号手牌是{total}张，应为{dealt[seat]}张",
                f"seat {seat} holds {count(total, 'card')}, not {dealt[seat]}",
            )
        hands[seat - 1] = engine.cards.format_counts(counts)
    totals = dict.fromkeys(PACK, 0)
    for h in hands:
        for ch in h:
            totals[ch] += 1
    over = [f"{r}×{n}" for r, n in totals.items() if n > PACK[r]]
    if over:
        raise ActionRefused(
            "G2.1",
            f"六手牌合计超过四副牌：{'、'.join(over)}（每点16张，大小王各4张）",
            f"the hands hold more than the pack: {', '.join(over)} (16 of a rank, 4 of each joker)",
        )
    # a correction: play has started, or a hand already known changes (not the hands entered at the deal)
    correcting = bool(g["record"]) or any(k and k != h for k, h in zip(known, hands, strict=True))
    if correcting and hands == known:
        raise ActionRefused("hands", "手牌没有改动", "the hands are unchanged")
    reason = _reason(payload, required=correcting)
    old = dict(g)
    g["hands"] = hands if any(hands) else []
    g["seed"] = None if any(hands) else old["seed"]
    try:
        game = new_game(state)
        for i, line in enumerate(g["record"], start=1):
            try:
                game.push(engine.Action.parse(line))
            except engine.IllegalAction as exc:
                raise ActionRefused(
                    exc.rule,
                    f"手牌与牌谱第{i}步（{line}）不符：{exc.zh}",
                    f"the hands contradict move {i} ({line}): {exc.en}",
                ) from exc
    except ActionRefused:
        g.update(old)
        raise
    seats = ",".join(str(s) for s in sorted(updates))
    changed = sorted(s for s in SEATS if known[s - 1] != hands[s - 1]) if correcting else sorted(updates)
    seats = ",".join(str(s) for s in changed) or seats
    _history(
        state,
        ctx,
        "hands",
        move=len(g["record"]),
        line=seats,
        new_line="undo" if payload.get("undo") else "",  # {undo: true}: the undoing of the one before
        reason=reason,
        before=known if correcting else [],
    )
    forget(ctx)
    project(state, live_game(state, ctx))
