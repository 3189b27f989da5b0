"""The top of the qualifier board invited into a season as its players (teams are formed later, by the
producer). Through the season's own API (``SeasonDB.add_player``): its checks of names on air apply."""

from __future__ import annotations

from dataclasses import dataclass, field

from broadcast.season.model import PLAYER_NAME, SeasonDB, SeasonError, on_air_limits

from .board import BoardRow, ranked
from .store import QualifierDB, QualifierError

NOTE = "网络海选"


@dataclass
class Invited:
    season: str
    added: list[BoardRow] = field(default_factory=list)
    already: list[BoardRow] = field(default_factory=list)
    tied_out: list[BoardRow] = field(default_factory=list)  # tied with the last invited, not invited


def invite(
    qdb: QualifierDB,
    sdb: SeasonDB,
    top: int,
    *,
    season: str | None = None,
    spec: str | None = None,
    renames: dict[str, str] | None = None,
) -> Invited:
    """Add the board's first ``top`` players to ``season`` (its 编号 = the platform id, so inviting again
    adds nobody twice). All or nothing: a name that cannot go on air stops it, naming the player."""
    if top < 1:
        raise QualifierError("invite", "--top 至少为 1", "--top must be at least 1")
    renames = renames or {}
    srow = sdb.season(season)
    season_id = int(srow["id"])
    rows = list(ranked(qdb, spec, top))
    if not rows:
        raise QualifierError(
            "invite", "海选榜是空的：先导入海选记录", "the qualifier board is empty: import first"
        )
    chosen, extra = rows[:top], rows[top:]
    out = Invited(str(srow["name"]), tied_out=[r for r in extra if chosen and r.rank == chosen[-1].rank])
    unknown = sorted(set(renames) - {r.platform_id for r in chosen})
    if unknown:
        raise QualifierError(
            "invite",
            f"--rename 的平台编号不在前 {top} 名里：{'、'.join(unknown)}",
            f"--rename names platform ids not among the top {top}: {', '.join(unknown)}",
        )
    limit = on_air_limits()[PLAYER_NAME]
    zh: list[str] = []
    en: list[str] = []
    for r in chosen:
        name = renames.get(r.platform_id, r.name)
        if len(name) > limit:
            pid = r.platform_id
            zh.append(
                f"第{r.rank}名 {pid} “{name}” 有 {len(name)} 个字，赛季选手姓名最多 {limit} 个字：先改名"
                f"（--rename {pid}=新名字；制片工作台：海选榜的昵称一列）"
            )
            en.append(
                f"rank {r.rank}, platform id {pid}: the name has {len(name)} characters, a season player's "
                f"at most {limit}: rename first (--rename {pid}=NAME; the producer's workspace: the "
                "qualifier board's Nickname column)"
            )
    if zh:
        raise QualifierError("invite", "\n".join(zh), "\n".join(en))
    existing = {str(p["code"]) for p in sdb.players(season_id) if p["code"]}
    with sdb.transaction():
        for r in chosen:
            if r.platform_id in existing:
                out.already.append(r)
                continue
            try:
                sdb.add_player(
                    season_id,
                    renames.get(r.platform_id, r.name),
                    code=r.platform_id,
                    note=f"{NOTE}第{r.rank}名（{r.points}分，{r.games}局）",
                )
            except SeasonError as e:
                raise QualifierError(
                    "invite",
                    f"第{r.rank}名 {r.platform_id}：{e.zh}",
                    f"rank {r.rank}, {r.platform_id}: {e.en}",
                ) from None
            out.added.append(r)
    return out
