"""Show states whose every on-air text field holds its declared maximum (the schema's maxLength), for
the pages' tests in Chromium and the native OBS graphics' tests: one place (the schema) says how long a
text may be, and both renderers are held to it.

Three alphabets: ``markup`` fills every field with HTML cut to its maximum (to be shown as text),
``cjk`` fills every field with full-width 汉字 (1 em each: the width every box is sized
for), ``latin`` with capitals and ``@`` (the widest Latin glyphs of Noto Sans CJK: W 0.92 em, @ 1.01 em).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from broadcast.overlay.demo import demo_state
from broadcast.studio import state_schema

# realistic words, cycled to the length wanted (every one a full-width character)
CJK = (
    "临沂沂蒙山泉小当家便利店金沂蒙酒业琅琊煎饼坊鲁信汽车城八宝豆豉嘉信驾校蒙山云雾茶顺和家电沂河源矿泉水"
    "兰山够级协会河东老哥们罗庄棋牌社够级英雄榜冠名特约赞助播出"
)
LATIN = "WM@QWGOM@DWH"

# where the pages draw each text field (selectors inside the graphic); () = drawn by no page itself (a
# sponsor's name that reaches the air through another field, or a field of a physical placement)
WHERE: dict[str, tuple[str, ...]] = {
    "show.title": (".cm-title", ".tk-label", ".cr-show"),
    "show.subtitle": (".cm-sub",),
    "show.channel": (".cr-channel",),
    "show.episode": (".cr-channel",),
    "show.round": (".cm-sub",),
    "show.host": (),  # goes to air as the lower third's name
    "lower_third.name": (".lt-name",),
    "lower_third.line2": (".lt-line2",),
    "table.teams.odd.name": (),  # the label is what airs
    "table.teams.odd.label": (".sb-team.odd .team-name", ".wp-team.odd"),
    "table.teams.even.name": (),
    "table.teams.even.label": (".sb-team.even .team-name", ".wp-team.even"),
    "table.seats[].name": (".seat .name", ".lp-name", ".turn-name"),
    "table.seats[].title": (".seat .title",),
    "table.last_play.label": (".lp-play",),
    "table.message": (".sb-message-text",),
    "sponsors.title.name": (".disc-name",),
    "sponsors.special.name": (".cb-name",),
    "sponsors.leaderboard.name": (".lb-sponsor",),
    "sponsors.commentary.name": (".cm-name",),
    "sponsors.table.name": (),  # the table top itself (a physical placement)
    "sponsors.jiugongge_board.name": (".jg-board-name",),
    "sponsors.supporters[].name": (),  # airs in the bumpers' and the credits' own texts
    "sponsors.bumpers[].text": (".bp-text",),
    "sponsors.ticker[]": (".tk-item",),
    "sponsors.credits[].role": (".cr-role",),
    "sponsors.credits[].name": (".cr-name",),
    "sponsors.prize_stand.name": (),  # physical
    "sponsors.shirts.name": (),  # physical
    "sponsors.roster[].name": (),  # airs through the slots' names
    "jiugongge.cells[].prize": (".jg-prize", ".jg-r-prize"),
    "jiugongge.cells[].sponsor": (".jg-sponsor", ".jg-back-sponsor", ".jg-r-sponsor"),
    "jiugongge.cells[].slogan": (".jg-slogan",),
    "jiugongge.draw.contestant": (".jg-r-who",),
    "jiugongge.draws[].contestant": (),  # the current draw's contestant is the one shown
    "leaderboard.title": (".lb-title",),
    "leaderboard.season": (".lb-season",),
    "leaderboard.sponsor": (),  # shown when the placements name no 英雄榜冠名 (sponsors.leaderboard wins)
    "leaderboard.rows[].name": (".lb-body .name",),
    "leaderboard.rows[].team": (".lb-body .team",),
    "season_push.pending[].gjn": (),  # a game record waiting to reach the season: never on air
    "winprob_history.game": (),  # the game the 胜率 history is of (a digest): never sent to the pages
    "winprob.current.line": (),  # the decision the 胜率 is of: compared with table.last_move, not shown
    "winprob_history.history[].line": (),  # the 胜率 history: the commentators' screen, never the pages
    "table.last_move": (),  # the record's last decision: what the 胜率 graphic checks its figures against
    "sponsors.qualifiers.name": (".qb-sponsor",),
    "qualifiers.title": (".qb-title",),
    "qualifiers.sponsor": (),  # shown when the placements name no 海选冠名 (sponsors.qualifiers wins)
    "qualifiers.summary": (".qb-summary",),
    "qualifiers.spec": (".qb-foot",),
    "qualifiers.rows[].name": (".qb-body .name",),
    "qualifiers.rows[].platform_id": (".qb-body .pid",),
    # the pre-show check's red lines the operator started recording over: the as-run log's, never on air
    "cues.preflight.red[]": (),
    "cues.preflight.red_en[]": (),
}
# engine words that are a short vocabulary, not free text: filled with their longest real value
ENGINE_WORDS = {
    "table.seats[].title": "头科",
    "table.last_play.label": "十六个10带十六个2带四个小王带四个大王",
    # the longest decision a record writes (that play), the same in both: the 胜率 shown is of it
    "table.last_move": "1 TTTTTTTTTTTTTTTT2222222222222222RRRRBBBB",
    "winprob.current.line": "1 TTTTTTTTTTTTTTTT2222222222222222RRRRBBBB",
}


def limits() -> dict[str, int]:
    return state_schema().text_limits()


# markup: what a page must show as text, never interpret (every field starts with it, cut to its maximum)
MARKUP = "<b>王</b><img src=x onerror=alert(1)><script>alert(2)</script>"


def text_of(n: int, alphabet: str, start: int = 0) -> str:
    if alphabet == "markup":
        return (MARKUP * (1 + n // len(MARKUP)))[:n]
    pool = CJK if alphabet == "cjk" else LATIN
    # pool[(start + i) % len(pool)] for i < n, built by repetition (a 200,000-character field took a
    # join of as many one-character strings, 0.3 s a state)
    return (pool[start % len(pool) :] + pool * (n // len(pool) + 1))[:n]


def _set(node: Any, parts: list[str], value: Any) -> None:
    head, rest = parts[0], parts[1:]
    many = head.endswith("[]")
    key = head[:-2] if many else head
    if many:
        items = node.get(key) or []
        for i, item in enumerate(items):
            if rest:
                _set(item, rest, value)
            else:
                items[i] = value
    elif rest:
        if node.get(key) is not None:
            _set(node[key], rest, value)
    else:
        node[key] = value


def max_state(alphabet: str = "cjk", on: tuple[str, ...] = ()) -> dict[str, Any]:
    """The demo show with every on-air text field at its maximum (and every list full)."""
    st = demo_state(on=on)
    st["show"]["logo"] = ""  # the 解说区 shows the title (not a logo)
    st["jiugongge"]["draws"] = [
        {"id": 1, "contestant": "x", "cell": 0},
        {"id": 2, "contestant": "y", "cell": 4},
    ]
    st["jiugongge"]["draw"] = {"id": 2, "contestant": "y", "cell": 4}
    st["table"]["last_play"] = {
        "seat": 1,
        "cards": "TTTTTTTTTT2222",
        "label": "",
        "gouji": True,
        "burn": True,
    }
    st["table"]["seats"][2].update(title="头科", status="out", cards_left=0)
    st["graphics"]["program"]["credits"]["item"] = "still"
    for k, (path, n) in enumerate(limits().items()):
        value = ENGINE_WORDS.get(path) or text_of(n, alphabet, start=7 * k)
        _set(st, path.split("."), value)
    for seat in st["table"]["seats"]:  # one finished with its title, the others still holding cards
        if seat["seat"] != 3:
            seat["title"] = None
    # every tag a seat can carry at once (过 烧牌 开点), and a full hand
    st["table"]["seats"][0].update(passed=True, status="burning", opened=True)
    st["table"]["seats"][3].update(cards_left=36)
    st["table"]["teams"]["odd"]["name"] = st["table"]["teams"]["odd"]["label"]
    st["table"]["teams"]["even"]["name"] = st["table"]["teams"]["even"]["label"]
    state_schema().validate(st)
    return st


def scenarios(alphabet: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(graphic, name, state): each graphic alone with its fields at their maxima; the scoreboard also
    without its referee line (which covers the last play) and the lower third also with a photo."""
    from broadcast.show.actions import GRAPHICS

    for g in GRAPHICS:
        st = max_state(alphabet, on=(g,))
        if g == "scoreboard":
            quiet = copy.deepcopy(st)
            quiet["table"]["message"] = ""
            yield g, f"{g}_{alphabet}", quiet
            yield g, f"{g}_message_{alphabet}", st
        elif g == "lower_third":
            yield g, f"{g}_{alphabet}", st
            photo = copy.deepcopy(st)
            photo["lower_third"]["photo"] = "demo/none.png"  # a photo narrows the name's box
            yield g, f"{g}_photo_{alphabet}", photo
        else:
            yield g, f"{g}_{alphabet}", st
