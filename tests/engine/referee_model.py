"""A small, independent model of why a move is refused, written from docs/rules.md (not from engine/game.py).

It follows a game from the outside: it sees only the engine's public state (whose turn, the top play,
statuses, 无头, the burner, 四户乱缠) and keeps the rest itself from the moves it watches (who passed
this round, a 让牌, a 够级牌 that has just lived). ``expected_rule`` says which clause a move breaks, or
None when it is legal. The property tests compare it with ``Game.why_illegal`` on random moves, so a
wrong citation (a skipped seat told "G5.2" instead of "G6.2") fails a test.
"""

from __future__ import annotations

from engine import Action, Game, Play
from engine.cards import beat_error

OPP = {1: 4, 2: 5, 3: 6, 4: 1, 5: 2, 6: 3}
NEXT = {1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 1}


class RefereeModel:
    """Watches a game (call :meth:`pushed` after each push) and predicts the clause of a refusal."""

    def __init__(self, game: Game) -> None:
        self.g = game
        self.passed: set[int] = set()  # G5.2: passed in this round
        self.passed_on_top: set[int] = set()  # passed on the top play itself (G6.4, G7.1)
        self.yielder = 0  # G5.5: a yield on the current top play
        self.yield_protected = False  # the top play is the yielder's own: only its 对头 answers
        self.lived: tuple[int, Play, int, set[int]] | None = None  # G6.4: (seat, play, 对头, passes)
        self.started = False  # a play has been made (G10.5: 革命 only before the first lead)

    # -------------------------------------------------------------- following the game
    def pushed(self, a: Action, before: Game) -> None:
        """Update after ``a`` was pushed; ``before`` is a copy of the game before it."""
        g = self.g
        top = before.last_play
        self.lived = None
        if a.kind == "pass":
            # G6.4: the 够级牌 lives once its 对头 and every 无头 seat that may act on it have passed
            duitou_passed = top is not None and OPP[top[0]] in self.passed_on_top | {a.seat}
            if top is not None and g.last_play is None and duitou_passed and self._protected(before):
                self.lived = (top[0], top[1], OPP[top[0]], set(self.passed) | {a.seat})
            self.passed.add(a.seat)
            self.passed_on_top.add(a.seat)
        elif a.kind == "yield":
            self.yielder = a.seat
        elif a.kind == "play":
            self.started = True
            self.passed_on_top = set()
            in_turn = top is not None and a.seat == before.pending_seat
            self.yield_protected = self.yielder == a.seat and in_turn
            self.yielder = 0
        if g.last_play is None:  # a new round (G5.1)
            self.passed = set()
            self.passed_on_top = set()
            self.yielder = 0
            self.yield_protected = False

    def _protected(self, g: Game) -> bool:
        """The top play is a 够级牌 only its 对头 answers (G6.2): not 无头 (G8), not 四户乱缠 (G10.2)."""
        top = g.last_play
        if top is None or g.four_way or self.yield_protected:
            return False
        seat, play = top
        return play.is_gouji(g.preset.gouji_min_twos) and g.in_play(OPP[seat]) and not play.is_dead

    # -------------------------------------------------------------- the model
    def expected_rule(self, a: Action) -> str | None:
        g = self.g
        if g.is_over():
            return "G10.4"
        if not g.in_play(a.seat):
            return "G10.1"
        if a.kind == "revolt":
            if not g.preset.revolution or self.started:
                return "G10.5"
            h = g.dealt_hand_counts(a.seat)
            return "G10.5" if h is None or h[12] or h[13] or h[14] else None
        pending = g.pending_seat
        top = g.last_play
        if a.seat != pending:
            return self._out_of_turn(a, top)
        if a.kind == "pass":
            return "G5.1" if top is None else None
        if a.kind == "yield":
            return self._yield(a.seat)
        assert a.cards is not None
        return self._cards(a.seat, a.cards, top)

    def _out_of_turn(self, a: Action, top: tuple[int, Play] | None) -> str | None:
        g = self.g
        if top is None:
            lived = self.lived
            if a.kind == "play" and lived is not None and a.seat not in (lived[0], lived[2]):
                assert a.cards is not None
                if beat_error(a.cards, lived[1]) is None:
                    return "G7.4" if a.seat in lived[3] else "G7.1"
            return "G5.1"
        t, play = top
        if a.seat == t:
            return "G5.2"
        if play.is_dead:
            return "G4.3"
        if g.four_way:
            return "G10.2"
        if self.yield_protected:
            return "G5.5"
        gouji = play.is_gouji(g.preset.gouji_min_twos)
        if a.kind == "play":  # out of turn: a burn (G7) or nothing
            assert a.cards is not None
            if not gouji:
                return "G5.2"
            if not g.in_play(OPP[t]):
                return "G8"  # a 无头 player's 够级牌 is beaten in turn, never burned
            if a.seat == OPP[t]:
                return "G5.2"  # the 对头 answers in turn, after a 无头 seat before it
            if a.seat in self.passed:
                return "G7.4"
            if OPP[t] in self.passed_on_top:
                return "G7.1"  # the 对头 has acted; a 无头 seat after it is still to act (G6.4)
            return self._cards(a.seat, a.cards, top)
        if a.seat in self.passed:
            return "G5.2"
        if self._protected(g):
            if a.seat == OPP[t] or g.is_wutou(a.seat):
                return "G5.2"  # it acts in turn, later
            return "G7.3" if g.burner == t else "G6.2"
        return "G5.2"

    def _yield(self, seat: int) -> str | None:
        g = self.g
        if g.four_way:
            return "G10.2"
        top = g.last_play
        if top is None or OPP[seat] != top[0] or self._protected(g) or self.yield_protected:
            return "G5.5"
        if top[1].is_dead:  # the 对头 of a dead play only 扣牌 (G4.3); no yield either
            return "G5.5"
        if self.yielder == seat:
            return "G5.5"
        t = top[0]
        for x in (NEXT[t], NEXT[NEXT[t]]):
            if g.in_play(x) and x not in self.passed:
                return "G5.5"
        if not any(g.in_play(x) and x not in self.passed for x in (NEXT[seat], NEXT[NEXT[seat]])):
            return "G5.5"
        return None

    def _cards(self, seat: int, play: Play, top: tuple[int, Play] | None) -> str | None:
        g = self.g
        h = g.hand_counts(seat)
        assert h is not None
        need = play.counts()
        if any(need[r] > h[r] for r in range(15)):
            return "G3.1"
        if g.preset.bie_san:
            size = play.size
            if play.base == 0 and (play.twos or play.smalls or play.bigs):
                return "G3.6"
            if play.base == 0 and size != g.cards_left(seat):
                return "G9.1"
            if play.base != 0 and size == g.cards_left(seat) and h[0]:
                return "G9.1"
        if top is not None:
            e = beat_error(play, top[1])
            if e is not None:
                return e[0]
        return None
