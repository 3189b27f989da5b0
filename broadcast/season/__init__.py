"""Seasons, matches, the 英雄榜 and post-show export (docs/season.md)."""
