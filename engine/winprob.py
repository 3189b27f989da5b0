"""胜率: each team's chance of winning a game from any position, by play-outs with the heuristic player
(:mod:`engine.policy`), and each seat's expected title and points — every figure with its 95 %
confidence interval.

**Known hands** are played out as dealt: the play-outs differ only by the players' chances.
**Unknown hands** are dealt afresh for every play-out, consistent with everything seen:

* the cards a seat holds are the pack (G2.1) less the known hands and every card played;
* each seat holds exactly its cards left (the record counts them; 报牌, G5.6, says the same);
* a 诈烧 seat (G7.4) still holds the cards of its void play; a 革命 seat (G10.5) was dealt no 2 and no
  joker; under 憋3 (G9.2) a seat in play whose last play was beaten holds more than 3s (else it
  would be 闷);
* a **pass implies nothing about the cards**: any seat may pass on any play (G5.2; on a dead play the
  对头 must, G4.3), so no deal is excluded by a pass. What a pass does is carried by the position
  itself: the seat takes no further part in the round (G5.2, except on its 对头's play) and may not
  burn it (过牌不烧, G7.4); the play-outs start from that position.

The unknown cards are dealt seat by seat from the pool as physical cards (a uniform deal of what is
left), a constrained seat first; a deal breaking the 憋3 condition is dealt again.

Seeded by the position (the rules, the deal as known, the moves): the same position gives the same
figures, in another process or after a restart. Play-outs run in chunks of :data:`CHUNK`, chunk ``k``
with its own seed, so the figures do not depend on how chunks are spread over processes
(:func:`chunk` is what a worker process runs; :func:`combine` adds the chunks up).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable
from typing import Any, Final

from .actions import YIELD as K_YIELD
from .actions import action_of
from .cards import BIG, NRANKS, SMALL, TWO, counts_to_cards
from .english import count
from .errors import GoujiError
from .game import Game
from .policy import Policy, play_out
from .preset import Preset
from .results import ranking, result
from .seats import IN_PLAY, REVOLT, SEATS, TITLES, ZHA
from .words import EVENT_NAMES, GLOSSARY, KIND_NAMES

#: play-outs per chunk (the unit of work and of seeding)
CHUNK: Final = 50
#: z for a two-sided 95 % interval
Z95: Final = 1.959963984540054
#: a 圈三 seat takes no title; its place in the mean is the middle of the places its team did not take
QUAN_SAN_PLACE: Final = 5.0
#: how many times a deal that breaks the 憋3 condition is dealt again before the condition is forced
REDEALS: Final = 50


#: what may happen in a decision, the moments the 胜率 history marks: (中文, English), the engine's words
#: (:mod:`engine.words`, the glossary's English) and two of the history's own
MOMENTS: Final = {
    **{k: EVENT_NAMES[k] for k in ("burn", "fan_shao", "jie_shao", "zha_shao", "men")},
    "yield": KIND_NAMES["yield"],
    "lived": ("够级牌活了", f"a {GLOSSARY['够级牌']} lived"),
    **{k: EVENT_NAMES[k] for k in ("finish", "open", "four_way", "quan_san", "revolt")},
}


def last_moment(g: Game) -> tuple[int, list[str]]:
    """The last decision's seat and what happened in it (keys of :data:`MOMENTS`): its rule events,
    a yield (G5.5), a protected 够级牌 that lived (G6.4) with the pass that ended its round."""
    n = len(g._codes)
    if not n:
        return 0, []
    code = g._codes[-1]
    tags = [e.name for e in g._events if e.move == n and e.name in MOMENTS]
    if code >> 3 & 3 == K_YIELD:
        tags.append("yield")
    if g._lived is not None:
        tags.append("lived")
    return code & 7, tags


#: the refusal of a position whose game has ended (no 胜率 to estimate)
GAME_OVER: Final = (
    "winprob",
    "牌局已结束，没有胜率可算",
    "the game is over: there is no win probability to estimate",
)


class WinprobError(GoujiError, ValueError):
    """A position the evaluator cannot deal for (more cards held than the pack has left), or a game over."""


class Position:
    """A position prepared for play-outs: the game (a copy), and for unknown hands what a deal must
    respect. Plain data: :meth:`key` rebuilds it in another process."""

    game: Game
    unknown: list[int]  # seats whose hands are dealt for each play-out
    pool: list[int]  # the cards they hold between them, one entry per card (ranks)
    must_hold: dict[int, list[int]]  # seat -> rank counts it holds for sure (a 诈烧's void play)
    no_wild: list[int]  # seats dealt no 2 and no joker (革命)
    not_only_threes: list[int]  # 憋3: seats in play whose last play was beaten
    seed: str

    def __init__(self, game: Game) -> None:
        self.game = game.copy()
        g = self.game
        g._undo = []
        st = g._status
        self.unknown = [s for s in SEATS if g._hands[s] is None and g._count[s] > 0]
        pool: list[int] = []
        for r in range(NRANKS):
            pool += [r] * g._supply[r]
        self.pool = pool
        need = sum(g._count[s] for s in self.unknown)
        if need > len(pool):
            raise WinprobError(
                "G2.1",
                f"未知的手牌共 {need} 张，牌堆只剩 {len(pool)} 张",
                f"the unknown hands hold {count(need, 'card')} but the pack has {len(pool)} left",
            )
        self.must_hold = {}
        self.no_wild = []
        self.not_only_threes = []
        beaten: set[int] = set()
        if g._bie and any(st[s] == IN_PLAY for s in self.unknown):
            beaten = _beaten_last(g)
        for s in self.unknown:
            if st[s] == ZHA:
                self.must_hold[s] = _void_play(g, s)
            elif st[s] == REVOLT:
                self.no_wild.append(s)
            elif g._bie and st[s] == IN_PLAY and s in beaten:
                self.not_only_threes.append(s)
        self.seed = position_seed(g)

    @property
    def known(self) -> bool:
        """Are all the hands known (the true deal is played out)?"""
        return not self.unknown

    def deal(self, rng: random.Random) -> list[list[int]]:
        """One deal of the unknown hands (index = seat; an empty list for a known seat)."""
        for _ in range(REDEALS):
            hands = self._deal_once(rng)
            if all(sum(hands[s]) > hands[s][0] for s in self.not_only_threes):
                return hands
        hands = self._deal_once(rng)
        for s in self.not_only_threes:  # forced: swap a 3 for another seat's card (vanishingly rare)
            _force_not_only_threes(hands, s, self.unknown)
        return hands

    def _deal_once(self, rng: random.Random) -> list[list[int]]:
        g = self.game
        hands: list[list[int]] = [[] for _ in range(7)]
        pool = list(self.pool)
        for s, cards in self.must_hold.items():
            h = list(cards)
            for r in range(NRANKS):
                for _ in range(cards[r]):
                    pool.remove(r)
            hands[s] = h
        for s in self.no_wild:
            plain = [c for c in pool if c < TWO]
            rng.shuffle(plain)
            take = plain[: g._count[s]]
            h = [0] * NRANKS
            for c in take:
                h[c] += 1
                pool.remove(c)
            hands[s] = h
        rng.shuffle(pool)
        i = 0
        for s in self.unknown:
            if hands[s]:
                h = hands[s]
                k = g._count[s] - sum(h)
            else:
                h = [0] * NRANKS
                k = g._count[s]
            for c in pool[i : i + k]:
                h[c] += 1
            i += k
            hands[s] = h
        return hands

    def start(self, rng: random.Random) -> Game:
        """A copy of the position with every hand known (a fresh deal of the unknown ones)."""
        g = self.game.copy()
        if self.unknown:
            hands = self.deal(rng)
            for s in self.unknown:
                h = hands[s]
                g._hands[s] = h
                if not g._started:
                    g._dealt_wild[s] = bool(h[TWO] or h[SMALL] or h[BIG])
            g._supply = [0] * NRANKS
        return g

    def key(self) -> tuple[Preset, int, list[list[int] | None], list[int], list[int]]:
        """What rebuilds this position in another process: ``Position.of_key(p.key())``."""
        g = self.game
        hands = [None if h is None else list(h) for h in g._dealt_hands]
        return (g.preset, g.leader, hands, list(g._dealt_counts), list(g._codes))

    @staticmethod
    def of_key(key: tuple[Preset, int, list[list[int] | None], list[int], list[int]]) -> Position:
        preset, leader, hands, counts, codes = key
        known = {s: counts_to_cards(h) for s in SEATS if (h := hands[s]) is not None}
        g = Game(preset, hands=known or None, leader=leader, counts={s: counts[s] for s in SEATS})
        for c in codes:
            g.push(action_of(c))
        return Position(g)


def _beaten_last(g: Game) -> set[int]:
    """The seats in play whose last play was beaten (a later play of theirs clears it), from the moves
    replayed on the deal as known."""
    known = {s: counts_to_cards(h) for s in SEATS if (h := g._dealt_hands[s]) is not None}
    r = Game(g.preset, hands=known or None, leader=g.leader, counts={s: g._dealt_counts[s] for s in SEATS})
    out: set[int] = set()
    for c in g._codes:
        a = action_of(c)
        before = r._top_seat if r._top is not None else 0
        zha = len(r._zha)
        r.push(a)
        if a.kind != "play" or len(r._zha) != zha:
            continue  # a pass, a yield, 革命, or a void play (诈烧: it beats nothing)
        if before and before != a.seat:
            out.add(before)
        out.discard(a.seat)
    return {s for s in out if g._status[s] == IN_PLAY}


def _void_play(g: Game, seat: int) -> list[int]:
    """The rank counts of seat ``seat``'s 诈烧 (G7.4): its void play, still in its hand."""
    for ev in g._events:
        if ev.name == "zha_shao" and ev.seat == seat:
            code = g._codes[ev.move - 1]
            pl = action_of(code).cards
            if pl is not None:
                return pl.counts()
    return [0] * NRANKS


def _force_not_only_threes(hands: list[list[int]], s: int, unknown: list[int]) -> None:
    h = hands[s]
    if sum(h) > h[0]:
        return
    for o in unknown:
        ho = hands[o]
        if o == s or not ho:
            continue
        for r in range(1, NRANKS):
            if ho[r]:
                ho[r] -= 1
                ho[0] += 1
                h[r] += 1
                h[0] -= 1
                return


def position_seed(g: Game) -> str:
    """The position's seed: a digest of the rules, the leader, the deal as known and the moves."""
    m = hashlib.sha256()
    m.update(repr((g.preset.name, g.preset.bie_san, g.preset.title_points, g.leader)).encode())
    for s in SEATS:
        h = g._dealt_hands[s]
        m.update(repr((s, g._dealt_counts[s], None if h is None else list(h))).encode())
    m.update(repr(list(g._codes)).encode())
    return m.hexdigest()[:32]


class Tally:
    """What a chunk of play-outs found: counts and sums, added up by :func:`combine`."""

    index: int  # the chunk's index
    n: int
    odd_wins: int
    even_wins: int
    points: list[float]  # [odd sum, odd sum of squares, even sum, even sum of squares]
    titles: list[list[int]]  # [seat][title index 0..5, 6 = 圈三]
    seat_points: list[list[float]]  # [seat][sum, sum of squares]
    place: list[list[float]]  # [seat][sum, sum of squares]
    seconds: float

    def __init__(self, index: int = 0) -> None:
        self.index = index
        self.n = 0
        self.odd_wins = 0
        self.even_wins = 0
        self.points = [0.0, 0.0, 0.0, 0.0]
        self.titles = [[0] * 7 for _ in range(7)]
        self.seat_points = [[0.0, 0.0] for _ in range(7)]
        self.place = [[0.0, 0.0] for _ in range(7)]
        self.seconds = 0.0

    def add(self, other: Tally) -> None:
        self.n += other.n
        self.odd_wins += other.odd_wins
        self.even_wins += other.even_wins
        for i in range(4):
            self.points[i] += other.points[i]
        for s in SEATS:
            for t in range(7):
                self.titles[s][t] += other.titles[s][t]
            for i in range(2):
                self.seat_points[s][i] += other.seat_points[s][i]
                self.place[s][i] += other.place[s][i]
        self.seconds += other.seconds

    def count(self, g: Game) -> None:
        """Add one finished play-out."""
        self.n += 1
        if g._void:
            return  # 流局: 0 : 0, no titles (two 革命, G10.5)
        order = ranking(g)
        p = g.preset
        tp = p.title_points
        pts = [0.0] * 7
        odd = even = 0.0
        if g._quan_san:
            base = tp[0] + tp[1] + tp[2]
            shares = [tp[i] * p.quan_san_points // base for i in range(3)]
            shares[0] += p.quan_san_points - sum(shares)
            for i in range(3):
                pts[order[i]] = float(shares[i])
            if order[0] % 2:
                odd = float(p.quan_san_points)
            else:
                even = float(p.quan_san_points)
        else:
            for i in range(len(order)):
                pts[order[i]] = float(tp[i])
            for s in SEATS:
                if s % 2:
                    odd += pts[s]
                else:
                    even += pts[s]
            if p.scoring == "dagang":
                odd, even = max(odd, 0.0), max(even, 0.0)
        if odd > even:
            self.odd_wins += 1
        elif even > odd:
            self.even_wins += 1
        self.points[0] += odd
        self.points[1] += odd * odd
        self.points[2] += even
        self.points[3] += even * even
        for s in SEATS:
            if s in order:
                k = order.index(s)
                self.titles[s][k] += 1
                pl = float(k + 1)
            else:
                self.titles[s][6] += 1
                pl = QUAN_SAN_PLACE
            self.place[s][0] += pl
            self.place[s][1] += pl * pl
            self.seat_points[s][0] += pts[s]
            self.seat_points[s][1] += pts[s] * pts[s]


def chunk(
    pos: Position,
    k: int,
    n: int = CHUNK,
    policy: Policy | None = None,
    stop: Callable[[], bool] | None = None,
) -> Tally:
    """Play-outs ``k * CHUNK`` … of the position (chunk ``k``, ``n`` of them), seeded by the position
    and ``k``. ``stop``: asked before every play-out; when it says so the chunk ends there."""
    t0 = time.perf_counter()
    pol = policy if policy is not None else Policy()
    rng = random.Random(f"winprob:{pos.seed}:{k}")
    tally = Tally(k)
    for _ in range(n):
        if stop is not None and stop():
            break
        g = pos.start(rng)
        play_out(g, rng, pol)
        tally.count(g)
    tally.seconds = time.perf_counter() - t0
    return tally


def chunks_for(playouts: int) -> list[tuple[int, int]]:
    """The chunks (index, size) that make ``playouts`` play-outs."""
    out: list[tuple[int, int]] = []
    k = 0
    left = playouts
    while left > 0:
        n = CHUNK if left > CHUNK else left
        out.append((k, n))
        left -= n
        k += 1
    return out


def wilson(k: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a proportion ``k / n``."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = Z95 * Z95
    d = 1.0 + z2 / n
    c = (p + z2 / (2 * n)) / d
    h = Z95 * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def mean_ci(s: float, s2: float, n: int) -> tuple[float, float, float]:
    """Mean and 95 % interval (normal approximation) from a sum and a sum of squares."""
    if n <= 0:
        return (0.0, 0.0, 0.0)
    m = s / n
    var = max(0.0, s2 / n - m * m) * n / (n - 1) if n > 1 else 0.0
    h = Z95 * math.sqrt(var / n)
    return (m, m - h, m + h)


def _r(x: float) -> float:
    return round(x, 4)


def combine(pos: Position, tallies: list[Tally], seconds: float) -> dict[str, Any]:
    """The estimate (the ``winprob --json`` object) from the chunks' tallies."""
    t = Tally()
    for x in tallies:
        t.add(x)
    n = t.n
    level = n - t.odd_wins - t.even_wins
    win = {"odd": _r(t.odd_wins / n) if n else 0.0, "even": _r(t.even_wins / n) if n else 0.0}
    ow, ew = wilson(t.odd_wins, n), wilson(t.even_wins, n)
    po = mean_ci(t.points[0], t.points[1], n)
    pe = mean_ci(t.points[2], t.points[3], n)
    seats: dict[str, Any] = {}
    ci_seats: dict[str, Any] = {}
    for s in SEATS:
        dist = {TITLES[i]: _r(t.titles[s][i] / n) for i in range(6) if n and t.titles[s][i]}
        if n and t.titles[s][6]:
            dist["圈三"] = _r(t.titles[s][6] / n)
        likely = max(range(7), key=lambda i: (t.titles[s][i], -i))
        place = mean_ci(t.place[s][0], t.place[s][1], n)
        spts = mean_ci(t.seat_points[s][0], t.seat_points[s][1], n)
        seats[str(s)] = {
            "title": (TITLES[likely] if likely < 6 else "圈三") if n else None,
            "place": _r(place[0]),
            "points": _r(spts[0]),
            "titles": dist,
        }
        ci_seats[str(s)] = {"place": [_r(place[1]), _r(place[2])], "points": [_r(spts[1]), _r(spts[2])]}
    return {
        "win": win,
        "level": _r(level / n) if n else 0.0,
        "points": {"odd": _r(po[0]), "even": _r(pe[0])},
        "seats": seats,
        "ci": {
            "confidence": 0.95,
            "win": {"odd": [_r(ow[0]), _r(ow[1])], "even": [_r(ew[0]), _r(ew[1])]},
            "points": {"odd": [_r(po[1]), _r(po[2])], "even": [_r(pe[1]), _r(pe[2])]},
            "seats": ci_seats,
        },
        "hands": "known" if pos.known else "sampled",
        "seed": pos.seed,
        "playouts": n,
        "seconds": round(seconds, 3),
    }


def finished(g: Game, seconds: float = 0.0) -> dict[str, Any]:
    """A game that is over: its result as the estimate's figures, certain (no play-outs)."""
    r = result(g)
    pts = r.team_points
    win = {"odd": float(pts["odd"] > pts["even"]), "even": float(pts["even"] > pts["odd"])}
    seats: dict[str, Any] = {}
    for s in SEATS:
        t = r.titles.get(s)
        place = float(TITLES.index(t) + 1) if t in TITLES else 5.0
        seats[str(s)] = {"title": t, "place": place, "points": None, "titles": {t: 1.0} if t else {}}
    return {
        "win": win,
        "level": float(pts["odd"] == pts["even"]),
        "points": {"odd": float(pts["odd"]), "even": float(pts["even"])},
        "seats": seats,
        "ci": None,
        "hands": "over",
        "over": True,
        "playouts": 0,
        "seconds": round(seconds, 3),
    }


def evaluate(game: Game, playouts: int = 1000, policy: Policy | None = None) -> dict[str, Any]:
    """Each team's probability of winning from ``game``'s position, in this process (see
    :mod:`engine.winprob`; a process pool runs the same chunks in parallel)."""
    t0 = time.perf_counter()
    pos = Position(game)
    if game.is_over():
        raise WinprobError(*GAME_OVER)
    tallies = [chunk(pos, k, n, policy) for k, n in chunks_for(playouts)]
    return combine(pos, tallies, time.perf_counter() - t0)
