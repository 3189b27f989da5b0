"""The English side of the checker's messages (the producer's English UI shows ``Issue.message_en``).

Messages name what they are about by a Chinese phrase (``what``: 赞助播出第2家 的 contract, 九宫格第3格
奖品 …) that is threaded through the readers; :func:`what_en` says the same phrase in English, from the
few words those phrases are built of. Values the user typed (sponsor ids, texts) pass through unchanged.
"""

from __future__ import annotations

import re

from broadcast.sponsors.placements.ratecard import KIND_LABELS, KIND_LABELS_EN
from engine.yamlread import TAG, MappingNode, Node, ScalarNode, SequenceNode

# numbered items first (their words would otherwise be replaced one by one)
_NUMBERED: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"赞助播出第(\d+)家"), r"sponsored by no. \1"),
    (re.compile(r"中插广告第(\d+)条"), r"mid-show spot \1"),
    (re.compile(r"九宫格第(\d+)格"), r"prize grid cell \1"),
    (re.compile(r"片尾鸣谢第(\d+)行"), r"end credits line \1"),
    (re.compile(r"第(\d+)个插播时段"), r"break \1"),
    (re.compile(r"第(\d+)项"), r" item \1"),
)
_WORDS: dict[str, str] = {
    "排期文件": "placements file",
    "节目流程": "rundown",
    "每期局数": "games per episode",
    "每期选手人数": "contestants per episode",
    "赞助商编号": "sponsor id",
    "赞助商": "sponsor",
    "合同开始日期": "contract start date",
    "合同结束日期": "contract end date",
    "签约日期": "signing date",
    "价格（元）": "price (yuan)",
    "计价单位": "price unit",
    "宣传片编号": "film id",
    "宣传片时长": "film length",
    "宣传片": "film",
    "标版文字": "bumper text",
    "标版时长": "bumper length",
    "时长": "length",
    "奖品": "prize",
    "广告语": "slogan",
    "流字": "ticker line",
    "奖品九宫格": "prize grid",
    "九宫格": "prize grid",
    **{KIND_LABELS[k]: KIND_LABELS_EN[k] for k in KIND_LABELS},
}
_WORD = re.compile("|".join(re.escape(w) for w in sorted(_WORDS, key=len, reverse=True)))


def what_en(what: str) -> str:
    """``what`` (how a Chinese message names a thing) in English."""
    out = what
    for pattern, repl in _NUMBERED:
        out = pattern.sub(repl, out)
    out = _WORD.sub(lambda m: _WORDS[m.group(0)], out)
    out = out.replace(" 的 ", "'s ").replace("的 ", "'s ").replace(" 的", "'s")
    out = out.replace("（", " (").replace("）", ")")
    out = re.sub(r"([\w.]+) \(\1\)", r"\1", out)  # rundown（节目流程）: "rundown", not "rundown (rundown)"
    return re.sub(r" {2,}", " ", out).strip()


# how a message names what was found instead, by language: a mapping, a list, empty, nothing
_FOUND = {"zh": ("映射", "列表", "空值", "空"), "en": ("a mapping", "a list", "empty", "nothing")}


def describe(node: Node | None, lang: str = "zh") -> str:
    """How a message names what was found instead (in ``lang``): a mapping, a list, empty, or the
    scalar itself."""
    mapping, sequence, empty, nothing = _FOUND[lang]
    if isinstance(node, MappingNode):
        return mapping
    if isinstance(node, SequenceNode):
        return sequence
    if isinstance(node, ScalarNode):
        if node.tag == TAG + "null" or node.value == "":
            return empty
        return repr(str(node.value))
    return nothing
