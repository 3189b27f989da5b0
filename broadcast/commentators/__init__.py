"""The commentators' screen (解说区 monitor, issue 25): every hand, what each seat could beat the top play
with, the 胜率 and its history with the moments that moved it most, 报牌 — on a server of its own with a
token of its own, never on air (:mod:`broadcast.commentators.server`)."""
