"""The rate card: what the sponsorship package sells (docs/sponsorship.md), as data.

Slot kinds and their Chinese names, which slots are exclusive, how many 赞助播出 may be sold, the spot
lengths and their list prices, film and bumper lengths, the per-episode minimums every contract gets
unless it says more, and which program graphics put a slot on screen. Nothing here reads a file.
"""

from __future__ import annotations

# slot kinds, in the order the package lists them, with their Chinese names
KIND_LABELS: dict[str, str] = {
    "title": "冠名",
    "special": "独家特约播出",
    "supporter": "赞助播出",
    "spot": "中插广告",
    "cell": "奖品九宫格",
    "jiugongge_board": "九宫格下方广告位",
    "prize_stand": "奖品展示台",
    "table": "桌面广告位",
    "leaderboard": "够级英雄榜冠名",
    "commentary": "解说区电脑背面",
    "shirts": "选手文化衫",
    "ticker": "底线流字",
    "credits": "片尾鸣谢",
    "qualifiers": "网络海选冠名",  # the qualifier board's sponsor (docs/qualifiers.md)
}
KIND_LABELS_EN: dict[str, str] = {  # the same names in the producer's English UI
    "title": "title sponsor",
    "special": "exclusive sponsor",
    "supporter": "sponsored by",
    "spot": "mid-show spot",
    "cell": "prize grid",
    "jiugongge_board": "board under the prize grid",
    "prize_stand": "prize stand",
    "table": "table ad",
    "leaderboard": "leaderboard title sponsor",
    "commentary": "back of the commentary laptop",
    "shirts": "players' T-shirts",
    "ticker": "ticker",
    "credits": "end credits",
    "qualifiers": "online qualifiers title sponsor",
}
EXCLUSIVE = (
    "title",
    "special",
    "jiugongge_board",
    "prize_stand",
    "table",
    "leaderboard",
    "commentary",
    "shirts",
    "qualifiers",
)
MAX_SUPPORTERS = 3
JIUGONGGE_CELLS = 9
SPOT_LENGTHS = (5, 10, 15, 20, 30)
SPOT_LIST_PRICE = {5: 1000, 10: 1700, 15: 2500, 20: 3200, 30: 4400}
# the list prices of the rate card (docs/sponsorship.md): (yuan, per); a contract may differ (the producer's
# forms start from these). 中插 are priced per airing by length (SPOT_LIST_PRICE); the ticker and the
# credits come with the broadcast-rights packages.
LIST_PRICE: dict[str, tuple[int, str]] = {
    "title": (2_000_000, "year"),
    "special": (1_600_000, "year"),
    "supporter": (1_200_000, "year"),
    "cell": (10_000, "month"),
    "jiugongge_board": (20_000, "month"),
    "prize_stand": (10_000, "month"),
    "table": (240_000, "year"),
    "leaderboard": (600_000, "year"),
    "shirts": (800_000, "year"),
    "commentary": (300_000, "year"),
    "qualifiers": (200_000, "year"),  # the studio's price for the 网络海选冠名 (docs/qualifiers.md)
}
FILM_LENGTH = {"title": 15, "special": 15, "supporter": 10, "leaderboard": 15}
BUMPER_SECONDS = 5
FILM_TOLERANCE = 0.5  # seconds between the declared and the real length of a film

MINIMUM_KEYS: dict[str, str] = {
    "mentions": "主持人口播次数",
    "appearances": "出镜次数",
    "seconds": "在屏秒数",
    "bumper": "5 秒标版播出次数",
    "film": "宣传片播出次数",
    "coverage": "角标覆盖节目时长百分比",
    "draws": "九宫格被抽中次数",
}
MINIMUM_KEYS_EN: dict[str, str] = {
    "mentions": "host mentions",
    "appearances": "appearances",
    "seconds": "seconds on screen",
    "bumper": "5 s bumper airings",
    "film": "film airings",
    "coverage": "corner bug coverage (% of the show)",
    "draws": "prize grid draws",
}
# what the package (docs/sponsorship.md) promises per episode when the file says nothing
DEFAULT_MINIMUMS: dict[str, dict[str, float]] = {
    "title": {"mentions": 5, "bumper": 1, "film": 1},
    "special": {"bumper": 1, "film": 1, "coverage": 100},
    "supporter": {"bumper": 1, "film": 1},
    "spot": {"film": 1},
    "cell": {},
    "jiugongge_board": {"appearances": 4},
    "prize_stand": {"mentions": 1},
    "table": {"appearances": 5},
    "leaderboard": {"appearances": 1, "film": 1},
    "commentary": {},
    "shirts": {},
    "ticker": {},
    "credits": {"appearances": 1},
    "qualifiers": {},  # the board airs when the producer chooses: its contract states what it promises
}
# which program graphics put a slot on screen when the file says nothing (see docs/sponsors.md)
DEFAULT_GRAPHICS: dict[str, tuple[str, ...]] = {
    "title": ("scoreboard",),  # name + logo at the centre of the game platform
    "special": ("corner_bug",),  # 右上角标 for the whole broadcast
    "leaderboard": ("leaderboard",),
    "commentary": ("commentary",),
    "ticker": ("ticker",),
    "credits": ("credits",),
    "qualifiers": ("qualifiers",),
}
DEFAULT_DRAWS = ("jiugongge_board",)  # each 九宫格 draw close-up shows the board under the grid
PRICE_UNITS = {"year": "年", "month": "月", "episode": "期", "airing": "次"}
PRICE_UNITS_EN = {"year": "year", "month": "month", "episode": "episode", "airing": "airing"}
# the end-credit role of the broadcast-rights packages, credited automatically
CREDIT_ROLES = {"title": "独家冠名播出", "special": "独家特约播出", "supporter": "赞助播出"}
