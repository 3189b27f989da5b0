"""Sponsor placements, the episode rundown, the as-run log and the exposure report (docs/sponsors.md)."""
