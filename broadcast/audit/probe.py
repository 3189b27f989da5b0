"""What the program page shows, and the judgement of it.

:data:`SETTLED` (JavaScript) says when a page has put a state on screen and finished its animations (a
crawl or a roll, continuous by design, aside); :data:`PROBE` reads what a viewer sees: every visible
graphic's box and every visible text, line by line as drawn (each character's box). :func:`judge` (pure,
no browser) turns one such frame and the state into findings: two graphics drawn over each other, a
graphic outside its zone, a text outside its box or cut with …, a line broken inside a term, a label that
disagrees with the state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.terms import breaks_inside_a_term
from broadcast.show import zones

Box = tuple[float, float, float, float]  # left, top, right, bottom (page pixels)
SLACK = 1.0  # px: rounding of layout, never a viewer's concern

# the page has drawn the state and its transitions are over: entrances and exits (up to 3 s) are taken
# to their end at once — what they end on is what a viewer then sees; longer ones (the ticker's crawl,
# the credits' roll) move by design and are measured as they are
SETTLED = """() => {
  const f = window.__fit;
  if (!window.__rendered || !f || f.pending) return false;
  if (document.fonts && document.fonts.status !== 'loaded') return false;
  if (![...document.images].every((i) => i.complete)) return false;
  let moving = false;
  for (const a of document.getAnimations()) {
    if (a.playState !== 'running') continue;
    const t = a.effect && a.effect.getComputedTiming();
    if (!t || t.iterations === Infinity || t.activeDuration > 3000) continue;
    a.finish();
    moving = true;
  }
  return !moving;
}"""

PROBE = """() => {
  const stage = document.getElementById('stage');
  const out = { graphics: [], texts: [], seq: window.__rendered ? window.__rendered.seq : -1 };
  const rect = (r) => [r.left, r.top, r.right, r.bottom];
  for (const g of stage.querySelectorAll(':scope > [data-graphic]')) {
    const cs = getComputedStyle(g);
    if (!g.classList.contains('on') || cs.visibility === 'hidden' || cs.display === 'none') continue;
    if (parseFloat(cs.opacity) < 0.05) continue;
    const gr = g.getBoundingClientRect();
    if (gr.width === 0 || gr.height === 0) continue;
    const id = g.dataset.graphic;
    out.graphics.push({ id, box: rect(gr) });
    const byEl = new Map();
    const walker = document.createTreeWalker(g, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.data.trim()) continue;
      let el = n.parentElement;
      if (el.classList.contains('term')) el = el.parentElement;
      const ecs = getComputedStyle(el);
      if (ecs.visibility === 'hidden' || ecs.display === 'none') continue;
      if (el.closest('.empty, .missing')) continue;
      const cell = el.closest('.jg-cell');
      const turned = cell
        && (cell.classList.contains('chosen') ? el.closest('.jg-front') : el.closest('.jg-back'));
      if (turned) continue; // the face of a 九宫格 cell turned away from the viewer
      let entry = byEl.get(el);
      if (!entry) {
        const b = el.getBoundingClientRect();
        const l = b.left + parseFloat(ecs.borderLeftWidth) + parseFloat(ecs.paddingLeft);
        const r = b.right - parseFloat(ecs.borderRightWidth) - parseFloat(ecs.paddingRight);
        let clip = [-1e9, -1e9, 1e9, 1e9];
        for (let a = el; a && a !== stage; a = a.parentElement) {
          const s = getComputedStyle(a);
          if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
          const ab = a.getBoundingClientRect();
          clip = [Math.max(clip[0], ab.left), Math.max(clip[1], ab.top),
                  Math.min(clip[2], ab.right), Math.min(clip[3], ab.bottom)];
        }
        entry = {
          graphic: id, cls: el.className, text: el.dataset.fitValue !== undefined ? el.dataset.fitValue : '',
          fit: el.dataset.fit || '', size: parseFloat(ecs.fontSize), box: [l, b.top, r, b.bottom], clip,
          moving: !!el.closest('.tk-track, .cr-roll'), chars: [],
        };
        byEl.set(el, entry);
      }
      if (entry.moving) continue;
      const range = document.createRange();
      for (let i = 0; i < n.data.length;) {
        const cp = n.data.codePointAt(i);
        const len = cp > 0xffff ? 2 : 1;
        range.setStart(n, i);
        range.setEnd(n, i + len);
        const rs = [...range.getClientRects()].filter((q) => q.width > 0 || q.height > 0);
        entry.chars.push([String.fromCodePoint(cp), rs.length ? rect(rs[0]) : null]);
        i += len;
      }
    }
    for (const [el, e] of byEl) {
      if (!e.text) e.text = el.textContent;
      out.texts.push(e);
    }
  }
  return out;
}"""


@dataclass(frozen=True)
class Line:
    text: str
    box: Box


@dataclass
class Finding:
    """One thing a viewer would notice: ``kind`` (overlap, zone, outside, cut, term, label), the
    graphics it concerns, what it is (中文 / English), and the boxes to mark on the screenshot."""

    kind: str
    graphics: tuple[str, ...]
    zh: str
    en: str
    boxes: list[Box] = field(default_factory=list)

    def text(self) -> str:
        return f"[{self.kind}] {self.zh} / {self.en}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "graphics": list(self.graphics),
            "zh": self.zh,
            "en": self.en,
            "boxes": [list(b) for b in self.boxes],
        }


def lines_of(chars: Sequence[tuple[str, Sequence[float] | None]], size: float) -> list[Line]:
    """A text's characters (each with its box as drawn) grouped into the lines they sit on. A
    character's box is its em square: the font's line box (taller than the glyphs, by the font's ascent
    and descent) is cut to ``size`` around its middle, where the ink is."""
    out: list[tuple[float, list[str], list[Box]]] = []
    for ch, r in chars:
        if r is None:
            if out:
                out[-1][1].append(ch)
            continue
        top, bottom = float(r[1]), float(r[3])
        if bottom - top > size:
            mid = (top + bottom) / 2
            top, bottom = mid - size / 2, mid + size / 2
        box = (float(r[0]), top, float(r[2]), bottom)
        if not out or abs(box[1] - out[-1][0]) > size * 0.5:
            out.append((box[1], [], []))
        out[-1][1].append(ch)
        out[-1][2].append(box)
    return [
        Line(
            "".join(chs),
            (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs)),
        )
        for _top, chs, bs in out
        if bs
    ]


def as_box(v: Sequence[float]) -> Box:
    return (float(v[0]), float(v[1]), float(v[2]), float(v[3]))


def _overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > SLACK and min(a[3], b[3]) - max(a[1], b[1]) > SLACK


def _inside(inner: Box, outer: Box) -> bool:
    return (
        inner[0] >= outer[0] - SLACK
        and inner[1] >= outer[1] - SLACK
        and inner[2] <= outer[2] + SLACK
        and inner[3] <= outer[3] + SLACK
    )


def _zone_box(graphic: str) -> Box:
    x0, y0, x1, y1 = T.zone(graphic).edges
    return (float(x0), float(y0), float(x1), float(y1))


def judge(
    frame: Mapping[str, Any], terms: Iterable[str], labels: Mapping[str, str] | None = None
) -> list[Finding]:
    """The findings of one frame (:data:`PROBE`'s answer). ``terms``: the state's names
    (``state_terms``); ``labels``: a text's class → what it must say (a label the state decides)."""
    terms = tuple(terms)
    found: list[Finding] = []
    boxes: dict[str, Box] = {str(g["id"]): as_box(g["box"]) for g in frame["graphics"]}
    names = list(boxes)
    for i, a in enumerate(names):
        if a in T.zones() and not _inside(boxes[a], _zone_box(a)):
            found.append(
                Finding(
                    "zone",
                    (a,),
                    f"{zones.ZH[a]}画在它的区域之外",
                    f"{zones.EN[a]} is drawn outside its zone",
                    [boxes[a], _zone_box(a)],
                )
            )
        for b in names[i + 1 :]:
            if _overlap(boxes[a], boxes[b]):
                found.append(
                    Finding(
                        "overlap",
                        (a, b),
                        f"{zones.ZH.get(a, a)}与{zones.ZH.get(b, b)}画在一起，互相遮挡",
                        f"{zones.EN.get(a, a)} and {zones.EN.get(b, b)} are drawn over each other",
                        [boxes[a], boxes[b]],
                    )
                )
    for t in frame["texts"]:
        found += _judge_text(t, boxes.get(t["graphic"]), terms, labels or {})
    return found


def _judge_text(
    t: Mapping[str, Any], graphic: Box | None, terms: tuple[str, ...], labels: Mapping[str, str]
) -> list[Finding]:
    g = str(t["graphic"])
    text = str(t["text"])
    where = f"{zones.ZH.get(g, g)}「{text[:24]}」"
    where_en = f"{zones.EN.get(g, g)} “{text[:24]}”"
    out: list[Finding] = []
    for cls, want in labels.items():
        if cls in str(t["cls"]).split() and want not in text:
            out.append(
                Finding(
                    "label",
                    (g,),
                    f"{where}与数据不符：应为“{want}”",
                    f"{where_en} disagrees with the state: it should say “{want}”",
                    [as_box(t["box"])],
                )
            )
    if t.get("moving"):
        return out
    lines = lines_of(t["chars"], float(t["size"]))
    box = as_box(t["box"])
    clip = as_box(t["clip"])
    if t.get("fit") == "ellipsis":
        out.append(Finding("cut", (g,), f"{where}没有放下，被截断（…）", f"{where_en} is cut with …", [box]))
        return out
    for line in lines:
        left, right = max(box[0], clip[0]), min(box[2], clip[2])
        outside = line.box[0] < left - SLACK or line.box[2] > right + SLACK
        if graphic is not None and not _inside(line.box, graphic):
            outside = True
        if outside:
            out.append(
                Finding(
                    "outside",
                    (g,),
                    f"{where}超出它的框",
                    f"{where_en} runs outside its box",
                    [line.box, box],
                )
            )
            break
    if len(lines) > 1:
        broken = breaks_inside_a_term([ln.text for ln in lines], text, terms)
        if broken:
            out.append(
                Finding(
                    "term",
                    (g,),
                    f"{where}在词中间换行：“{broken}”",
                    f"{where_en} breaks a line inside a term: “{broken}”",
                    [ln.box for ln in lines],
                )
            )
    return out
