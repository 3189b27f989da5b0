"""Every on-air text field at its declared maximum (the schema's maxLength), in real headless Chromium:
each graphic's texts stay inside their boxes and inside the 90 % title-safe area, no two texts overlap,
nothing needs an ellipsis at the maximum, and a paid sponsor name is never shrunk below its floor (the
design tokens' fit.floor.sponsor). Screenshots of every graphic at its maxima in
test-artifacts/overlays/fit/ (full-width 汉字, and the widest Latin capitals)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from broadcast import tokens
from broadcast.overlay import OverlayServer
from broadcast.overlay.memory import MemoryStore
from tests.overlay.conftest import (
    SAFE,
    assert_outside_safe_is_transparent,
    open_page,
    screenshot,
    wait_rendered,
)
from tests.overlay.test_graphics_render import check_renders_demo_state, demo_state_for
from tests.textfit import WHERE, limits, max_state, scenarios

# every text of a graphic: its box, its characters' boxes, how the shared rule fitted it
COLLECT = """
(root) => {
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const byEl = new Map();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    // a text broken between terms is in pieces (span.term): the fitted element is their parent
    const el = n.parentElement.classList.contains('term') ? n.parentElement.parentElement : n.parentElement;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (!rects.length) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none') continue;
    const cell = el.closest('.jg-cell');
    const face = cell
      && (cell.classList.contains('chosen') ? el.closest('.jg-front') : el.closest('.jg-back'));
    const entry = byEl.get(el) || {
      cls: el.className, text: el.textContent, fit: el.dataset.fit || '', spec: el.dataset.fitSpec || '',
      role: el.dataset.fitRole || '', size: parseFloat(cs.fontSize), hiddenFace: !!face,
      moving: !!el.closest('.tk-track'),
      clip: (() => { // what its clipping boxes (overflow other than visible) leave of the page
        let c = [-1e9, -1e9, 1e9, 1e9];
        for (let a = el; a && a !== root.parentElement; a = a.parentElement) {
          const s = getComputedStyle(a);
          if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
          const b = a.getBoundingClientRect();
          c = [Math.max(c[0], b.left), Math.max(c[1], b.top),
               Math.min(c[2], b.right), Math.min(c[3], b.bottom)];
        }
        return c; })(),
      box: (() => { const b = el.getBoundingClientRect();
        const l = b.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
        const r = b.right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight);
        return [l, b.top, r, b.bottom]; })(),
      rects: [],
    };
    for (const r of rects) entry.rects.push([r.left, r.top, r.right, r.bottom]);
    byEl.set(el, entry);
  }
  for (const e of byEl.values()) out.push(e);
  const rb = root.getBoundingClientRect();
  return { texts: out, root: [rb.left, rb.top, rb.right, rb.bottom], fit: window.__fit };
}
"""

EM_TOP, EM = 0.28, 1.0  # Noto Sans CJK: the glyphs' em box starts 0.28 em below a text rect's top


def _em_box(rect: list[float], size: float) -> tuple[float, float, float, float]:
    """The part of a text's line box the glyphs are drawn in (line boxes overlap when lines are tight)."""
    top = rect[1] + EM_TOP * size
    return (rect[0], top, rect[2], top + EM * size)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def _wait_fitted(page: Any) -> None:
    page.wait_for_function(
        "() => window.__fit && window.__fit.fonts === 'loaded' && window.__fit.pending === 0",
        timeout=30000,
    )


def check_texts(report: dict[str, Any], where: str) -> list[dict[str, Any]]:
    """The assertions every graphic is held to at its maxima (returns the texts for more)."""
    texts, root = report["texts"], report["root"]
    assert texts, f"{where}: no text drawn"
    for t in texts:
        name = f"{where}: {t['cls']} “{t['text'][:12]}”"
        if t["moving"]:
            continue  # the crawl: clipped by its lane (the pixels outside the title-safe area are checked)
        for raw in t["rects"]:
            r = _em_box(raw, t["size"])  # where the glyphs are drawn
            # inside the title-safe area and inside its graphic (a graphic clips what leaves it)
            assert SAFE[0] - 0.5 <= r[0] and r[2] <= SAFE[2] + 0.5, f"{name} leaves the title-safe area: {r}"
            assert SAFE[1] - 0.5 <= r[1] and r[3] <= SAFE[3] + 0.5, f"{name} leaves the title-safe area: {r}"
            assert root[0] - 0.5 <= r[0] and r[2] <= root[2] + 0.5, f"{name} leaves its graphic {root}: {r}"
            assert root[1] - 0.5 <= r[1] and r[3] <= root[3] + 0.5, f"{name} leaves its graphic {root}: {r}"
            c = t["clip"]  # nothing of it cut off by a box it sits in
            assert c[0] - 0.5 <= r[0] and r[2] <= c[2] + 0.5 and c[1] - 0.5 <= r[1] and r[3] <= c[3] + 0.5, (
                f"{name} is cut by its box {c}: {r}"
            )
        if not t["spec"]:
            continue  # a fixed caption (上手, 独家特约 …): its own design
        # fitted texts: inside their own box, whole (no ellipsis at the maximum) …
        assert t["fit"] in ("base", "shrunk"), f"{name} did not fit ({t['fit']!r})"
        for r in t["rects"]:
            assert t["box"][0] - 0.5 <= r[0] and r[2] <= t["box"][2] + 0.5, (
                f"{name} leaves its box {t['box']}: {r}"
            )
    shown = [t for t in texts if not t["hiddenFace"] and not t["moving"]]
    for i, a in enumerate(shown):
        for b in shown[i + 1 :]:
            for ra in a["rects"]:
                for rb in b["rects"]:
                    assert not _overlap(_em_box(ra, a["size"]), _em_box(rb, b["size"])), (
                        f"{where}: “{a['text'][:10]}” ({a['cls']}) overlaps “{b['text'][:10]}” ({b['cls']})"
                    )
    return texts


def test_every_text_field_with_a_maximum_is_placed() -> None:
    """The schema's maxima and this test's map of where each field airs name the same fields."""
    assert set(limits()) == set(WHERE)


def _by_graphic() -> dict[str, list[tuple[str, str, dict[str, Any]]]]:
    """Every graphic's scenarios in the three alphabets (full-width 汉字, the widest Latin capitals, then
    markup), in the order its page is sent them: (alphabet, name, state)."""
    out: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for alphabet in ("cjk", "latin", "markup"):
        for graphic, name, state in scenarios(alphabet):
            out.setdefault(graphic, []).append((alphabet, name, state))
    return out


@pytest.mark.long
@pytest.mark.browser
def test_every_graphic_renders_the_demo_state_then_fits_its_maxima_and_shows_markup_as_text(
    page: Any, shots: Path
) -> None:
    """Each graphic's page is opened once, on the demo state, where it is held to test_graphics_render's
    checks (``check_renders_demo_state``: the page load both need, ~0.6 s of Chromium's CPU, paid once),
    then sent its maxima as the studio sends a change (the fit of a live page is what airs): at each
    maximum its texts fit (``check_texts``), a paid name stays at or above its floor, nothing is drawn
    outside the title-safe area; filled with markup (<b>, <img onerror>, <script>), every field shows the
    characters themselves, creates no element from them and runs nothing."""
    from tests.textfit import ENGINE_WORDS, MARKUP

    out = shots / "fit"
    out.mkdir(exist_ok=True)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    drawn: dict[str, dict[str, set[str]]] = {"cjk": {}, "latin": {}}
    sizes: dict[str, dict[str, float]] = {"cjk": {}, "latin": {}}
    shown = ""
    store = MemoryStore(max_state("cjk"))
    with OverlayServer(store, port=0) as srv:
        for graphic, runs in _by_graphic().items():
            store.replace(demo_state_for(graphic))
            open_page(page, srv.url(graphic), store.seq)
            check_renders_demo_state(page, graphic, shots)
            for alphabet, name, state in runs:
                store.replace(state)
                wait_rendered(page, store.seq)
                _wait_fitted(page)
                root_sel = f"[data-graphic={graphic}]"
                if alphabet == "markup":
                    assert (
                        page.eval_on_selector_all(
                            f"{root_sel} b, {root_sel} script, {root_sel} img[src='x']", "els => els.length"
                        )
                        == 0
                    ), name
                    shown += page.eval_on_selector(root_sel, "e => e.textContent") + "\n"
                    assert page.errors == [], name
                    continue
                img = screenshot(page, out / f"{name}.png", settle_ms=1300)  # entrances and rows done
                root = page.query_selector(root_sel)
                report = root.evaluate(COLLECT)
                # the designed size of each fitted text, for the floor of paid names
                bases = root.evaluate(
                    "r => [...r.querySelectorAll('[data-fit-spec]')].map(e => { const s = e.style.fontSize;"
                    " e.style.fontSize = ''; const b = parseFloat(getComputedStyle(e).fontSize);"
                    " e.style.fontSize = s; return [e.className, e.textContent, b]; })"
                )
                assert page.errors == [], name
                base_of = {(c, t): b for c, t, b in bases}
                for t in report["texts"]:
                    if t["spec"]:
                        t["base"] = base_of[(t["cls"], t["text"])]
                texts = check_texts(report, name)
                for t in texts:
                    if t["role"] == "sponsor":
                        floor = tokens.fit_floor("sponsor", t["base"])
                        assert t["size"] >= floor - 0.01, (
                            f"{name}: paid name “{t['text']}” at {t['size']} px < {floor}"
                        )
                        sizes[alphabet][f"{name}:{t['cls']}"] = t["size"]
                    for sel in t["cls"].split():
                        drawn[alphabet].setdefault(sel, set()).add(t["text"])
                assert_outside_safe_is_transparent(img)
    for alphabet in ("cjk", "latin"):
        # every field with a maximum that a page draws was seen at its maximum
        for field, selectors in WHERE.items():
            for sel in selectors:
                cls = sel.split()[-1].split(".")[-1]
                assert drawn[alphabet].get(cls), f"{alphabet}: {field}: nothing drawn as {sel}"
        assert sizes[alphabet], alphabet  # paid names were measured
    assert dialogs == []
    for field in [f for f, sel in WHERE.items() if sel and f not in ENGINE_WORDS]:
        value = (MARKUP * 2)[: limits()[field]]
        assert value in shown, f"{field}: “{value}” is not shown as text"


@pytest.mark.browser
def test_the_game_scene_at_maxima_has_no_overlapping_graphics(page: Any, shots: Path) -> None:
    """What airs together (the game scene: scoreboard, 记牌器, lower third, 解说区, ticker, corner bug; the
    英雄榜 with the corner bug) at every text's maximum: no graphic runs into another. One program page,
    sent each scene as the studio sends a change (the graphics of the scene before go off)."""
    (shots / "fit").mkdir(exist_ok=True)
    scenes = {
        "game": ("scoreboard", "jipaiqi", "winprob", "lower_third", "commentary", "ticker", "corner_bug"),
        "leaderboard": ("leaderboard", "corner_bug"),
        "qualifiers": ("qualifiers", "corner_bug"),
        "credits": ("credits", "corner_bug"),
        "bumper": ("bumper", "corner_bug"),
    }
    store = MemoryStore(max_state("cjk"))
    with OverlayServer(store, port=0) as srv:
        for n, (scene, graphics) in enumerate(scenes.items()):
            store.replace(max_state("cjk", on=graphics))
            if n == 0:
                open_page(page, srv.url("program"), store.seq)
            else:
                wait_rendered(page, store.seq)
            _wait_fitted(page)
            img = screenshot(page, shots / "fit" / f"scene_{scene}.png", settle_ms=1300)
            boxes = {
                g: page.eval_on_selector(
                    f"[data-graphic={g}]",
                    "e => { const r = e.getBoundingClientRect();"
                    " return [r.left, r.top, r.right, r.bottom]; }",
                )
                for g in graphics
            }
            assert_outside_safe_is_transparent(img)
            names = list(boxes)
            for i, a in enumerate(names):
                for b in names[i + 1 :]:
                    assert not _overlap(tuple(boxes[a]), tuple(boxes[b])), (
                        f"{scene}: {a} {boxes[a]} overlaps {b} {boxes[b]}"
                    )


@pytest.mark.browser
def test_a_longer_text_shrinks_to_its_floor_then_ends_with_an_ellipsis(page: Any) -> None:
    """Text longer than any maximum (a journal older than the maxima): shrunk to its floor, never below,
    then cut with … inside its box."""
    state = max_state("cjk", on=("corner_bug", "lower_third"))
    state["sponsors"]["special"]["name"] = "临沂沂蒙山泉矿泉水饮品有限公司临沂分公司"  # 20 characters
    state["lower_third"]["name"] = "王" * 40
    store = MemoryStore(state, schema=_lenient())
    with OverlayServer(store, port=0) as srv:
        open_page(page, srv.url("program"))
        _wait_fitted(page)
        got = page.evaluate(
            "() => ['.cb-name', '.lt-name'].map(s => { const e = document.querySelector(s);"
            " const cs = getComputedStyle(e); const size = parseFloat(cs.fontSize);"
            " const over = e.scrollWidth > e.clientWidth, ellipsis = cs.textOverflow;"
            " const shown = e.style.fontSize; e.style.fontSize = '';"
            " const base = parseFloat(getComputedStyle(e).fontSize); e.style.fontSize = shown;"
            " return { fit: e.dataset.fit, size, base, over, ellipsis }; })"
        )
    for g, role in zip(got, ("sponsor", "text"), strict=True):
        assert g["fit"] == "ellipsis" and g["ellipsis"] == "ellipsis" and g["over"], g
        assert abs(g["size"] - tokens.fit_floor(role, g["base"])) < 0.01, g  # exactly its floor


def _lenient() -> Any:
    """The studio's schema without the maxima (what an older journal may hold)."""
    import copy

    from broadcast.core.schema import StateSchema
    from broadcast.studio import state_schema

    class Lenient(StateSchema):
        def __init__(self) -> None:  # noqa: D401 - a copy of the composed schema, maxLength dropped
            base = state_schema()
            self.__dict__.update(base.__dict__)
            schema = copy.deepcopy(base.schema)

            def drop(node: Any) -> None:
                if isinstance(node, dict):
                    node.pop("maxLength", None)
                    for v in node.values():
                        drop(v)
                elif isinstance(node, list):
                    for v in node:
                        drop(v)

            drop(schema)
            self.schema = schema
            self._validator = self._cls(schema)
            self._sections = {}

    return Lenient()
