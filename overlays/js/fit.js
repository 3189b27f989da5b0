// One fitting rule for every on-air text, shared by all the graphics (docs/overlays.md, "Text fits").
//
// A text is drawn at its designed size (its CSS font-size) and shrunk only as much as its box needs,
// never below its floor: a fraction of the designed size taken from the design tokens
// (--fit-floor-sponsor for paid sponsor names, which keep the prominence their slot promises;
// --fit-floor-text for any other text) and never below --fit-min — on one line first. Only a text that
// may take `lines` > 1 and does not fit on one line at its floor is broken, and only between terms (a
// name or a score is never split: terms.js), at the best kind of place that lets it fit (a space or ·,
// then Chinese punctuation, then between Chinese characters), at the largest size from its designed one
// down to its floor, on balanced lines. A text that fits nowhere ends with an ellipsis at its floor (CSS
// text-overflow, or line-clamp when it may wrap), so nothing ever leaves its box. The native OBS graphics
// apply the same rule (broadcast/obs/graphics/fit.py), and every text field's maximum length is declared
// once, in the schema (maxLength), where input longer than it is refused.
//
// Graphics call fitText(el, value, {role, lines}) while they render (the text goes in as text nodes:
// never as HTML); page.js calls setTerms() with the state's names and fitPending() once every graphic has
// rendered the frame. It measures all the texts set in that frame together: one layout for all of them
// at their designed size, then a few more only while some of them must shrink or break (one binary
// search shared by all). Fonts that arrive later refit every text. window.__fit tells tests what
// happened: {runs, pending, fonts}.
import { pieces, SPACE, PUNCT, HAN, INSIDE } from './terms.js';

const STEP = 0.5; // px: how finely a size is searched
const pending = new Set(); // texts to (re)fit at the next pass
const hidden = new Set(); // texts not laid out (display: none) at their pass: tried again at every pass
const turned = new Set(); // texts seen edge-on (a card mid-flip) at their pass: fitted when the turn ends
const known = new Set(); // every fitted text still in the page (refit when fonts arrive)
let runs = 0;
let terms = []; // the state's names, each one term (never broken onto two lines)
let canvas = 1; // the whole canvas's scale in its window (page.js): a text drawn at it is not edge-on

/** The names that are one term each (terms.js stateTerms); a change refits every text. */
/** The page's canvas is drawn at `scale` (a window of another size than 1920×1080: page.js). */
export function setCanvasScale(scale) {
  canvas = scale;
}

export function setTerms(list) {
  const next = [...list];
  if (next.length === terms.length && next.every((t, i) => t === terms[i])) return;
  terms = next;
  for (const el of known) pending.add(el);
}

function tokenNumber(name, fallback) {
  const v = parseFloat(getComputedStyle(document.documentElement).getPropertyValue(name));
  return Number.isFinite(v) ? v : fallback;
}

/** The smallest size (px) a text designed at `base` px may shrink to, for its role. */
export function floorOf(role, base) {
  const ratio = tokenNumber(role === 'sponsor' ? '--fit-floor-sponsor' : '--fit-floor-text', 0.7);
  return Math.min(base, Math.max(tokenNumber('--fit-min', 14), ratio * base));
}

/**
 * Put `value` into `el` as text and have it fitted at the end of the frame.
 * role: 'sponsor' (a paid name: the higher floor) or 'text'; lines: how many lines it may take.
 */
export function fitText(el, value, { role = 'text', lines = 1 } = {}) {
  const v = value === null || value === undefined ? '' : String(value);
  if (el.dataset.fitValue !== v || el.dataset.fitMode === undefined) {
    el.dataset.fitValue = v;
    el.dataset.fitMode = '';
    setMode(el, 'one');
  }
  const spec = `${role}/${lines}`;
  if (el.dataset.fitSpec !== spec) {
    el.dataset.fitSpec = spec;
    el.dataset.fitRole = role;
    el.dataset.fitLines = String(lines);
    el.classList.toggle('fit-line', lines <= 1);
    el.classList.toggle('fit-lines', lines > 1);
  }
  pending.add(el);
  known.add(el);
}

/**
 * How a text is laid out while it is fitted: 'one' (one line, plain text) or broken between terms at
 * places of kind SPACE, PUNCT or HAN or better: each piece a span that never breaks, a space or a <wbr>
 * between pieces — the only places a line may end. The text itself (textContent) is the same in every
 * mode.
 */
function setMode(el, mode) {
  if (el.dataset.fitMode === mode) return;
  el.dataset.fitMode = mode;
  const v = el.dataset.fitValue || '';
  const wrap = mode !== 'one';
  el.classList.toggle('fit-one', !wrap);
  el.style.webkitLineClamp = wrap ? el.dataset.fitLines : '';
  if (!wrap) {
    el.textContent = v;
    return;
  }
  const parts = pieces(v, terms, Number(mode));
  const nodes = [];
  parts.forEach((p, i) => {
    const span = document.createElement('span');
    span.className = 'term';
    span.textContent = p.text;
    nodes.push(span);
    if (p.sep) nodes.push(document.createTextNode(p.sep));
    else if (i < parts.length - 1) nodes.push(document.createElement('wbr'));
  });
  el.replaceChildren(...nodes);
}

/** Does the text of `el` fit: no wider than its content box, on no more lines than it may take? */
function fits(el) {
  const range = document.createRange();
  range.selectNodeContents(el);
  const rects = [...range.getClientRects()].filter((r) => r.width > 0 || r.height > 0);
  if (rects.length === 0) return true;
  const cs = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  // a text in a transformed box (a card turning, a graphic scaling in) is measured as drawn: its
  // half-pixel of slack and its line height are taken at the same scale as its box
  const sx = el.offsetWidth ? box.width / el.offsetWidth : 1;
  const sy = el.offsetHeight ? box.height / el.offsetHeight : 1;
  const left = box.left + (parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft)) * sx;
  const right = box.right - (parseFloat(cs.borderRightWidth) + parseFloat(cs.paddingRight)) * sx;
  const size = parseFloat(cs.fontSize) * sy;
  const tops = [];
  for (const r of rects) {
    if (r.left < left - 0.5 * sx || r.right > right + 0.5 * sx) return false;
    if (!tops.some((t) => Math.abs(t - r.top) < size * 0.5)) tops.push(r.top);
  }
  const most = el.dataset.fitMode === 'one' ? 1 : Number(el.dataset.fitLines || 1);
  return tops.length <= most;
}

function setSize(el, px) {
  const v = px === null ? '' : `${px}px`;
  if (el.style.fontSize !== v) el.style.fontSize = v;
}

/** Fit every text set since the last pass. Returns how many were measured. */
export function fitPending() {
  if (pending.size === 0) return 0;
  const els = [...new Set([...pending, ...hidden, ...turned])].filter((el) => el.isConnected);
  pending.clear();
  hidden.clear();
  turned.clear();
  for (const el of known) if (!el.isConnected) known.delete(el);
  for (const el of els) { // every text at its designed size, on one line …
    setSize(el, null);
    setMode(el, 'one');
  }
  const verdict = new Map();
  let open = [];
  for (const el of els) { // … measured together (one layout)
    if (el.getClientRects().length === 0) { // not laid out (display: none): fitted when it shows
      hidden.add(el);
      continue;
    }
    if (el.offsetWidth && el.getBoundingClientRect().width < 0.5 * canvas * el.offsetWidth) {
      turned.add(el); // seen edge-on (a card mid-flip): too thin to measure, fitted when the turn ends
      continue;
    }
    if (!el.textContent || fits(el)) {
      verdict.set(el, 'base');
      continue;
    }
    const base = parseFloat(getComputedStyle(el).fontSize);
    open.push({ el, base, lo: floorOf(el.dataset.fitRole, base), hi: base });
  }
  const search = []; // texts that fit at their floor in their mode: the largest size is searched
  for (const t of open) setSize(t.el, t.lo); // shrink first: on one line at the floor?
  let rest = [];
  for (const t of open) (fits(t.el) ? search : rest).push(t);
  for (const kind of [SPACE, PUNCT, HAN, INSIDE]) { // then break between terms, the best places first
    // INSIDE: the last resort of a text that is one name and nothing else (terms.js)
    const wrap = rest.filter((t) => Number(t.el.dataset.fitLines) > 1
      && (kind < INSIDE || pieces(t.el.dataset.fitValue || '', terms, HAN).length === 1));
    for (const t of rest) if (!wrap.includes(t)) verdict.set(t.el, 'ellipsis');
    for (const t of wrap) {
      setMode(t.el, String(kind));
      setSize(t.el, null);
    }
    const atFloor = [];
    for (const t of wrap) (fits(t.el) ? verdict.set(t.el, 'base') : atFloor.push(t));
    for (const t of atFloor) setSize(t.el, t.lo);
    rest = [];
    for (const t of atFloor) (fits(t.el) ? search : rest).push(t);
  }
  for (const t of rest) { // at its floor, broken between terms (or anywhere: a lone name), ends with …
    verdict.set(t.el, 'ellipsis');
  }
  open = search;
  while (open.length) { // the largest size that fits, in STEP px, every text of the pass at once
    for (const t of open) t.mid = Math.floor((t.lo + t.hi) / 2 / STEP) * STEP;
    open = open.filter((t) => {
      if (t.mid <= t.lo) return false;
      setSize(t.el, t.mid);
      return true;
    });
    for (const t of open) {
      if (fits(t.el)) t.lo = t.mid;
      else t.hi = t.mid;
    }
    open = open.filter((t) => t.hi - t.lo > STEP);
  }
  for (const t of search) {
    setSize(t.el, t.lo);
    verdict.set(t.el, t.lo < t.base ? 'shrunk' : 'base');
  }
  for (const [el, how] of verdict) if (el.dataset.fit !== how) el.dataset.fit = how;
  runs += 1;
  report();
  return els.length;
}

function report() {
  window.__fit = {
    runs, pending: pending.size + turned.size, fonts: document.fonts ? document.fonts.status : 'loaded',
  };
}

/** Refit every text (fonts arrived, or the page was resized). */
export function refitAll() {
  for (const el of known) pending.add(el);
  fitPending();
  report();
}

/** The texts seen edge-on fitted once a transition or an animation ends (the card lies flat again). */
function refitTurned() {
  if (turned.size === 0) return;
  for (const el of turned) pending.add(el);
  fitPending();
  report();
}
document.addEventListener('transitionend', () => requestAnimationFrame(refitTurned));
document.addEventListener('animationend', () => requestAnimationFrame(refitTurned));

if (document.fonts) {
  document.fonts.addEventListener('loadingdone', () => requestAnimationFrame(refitAll));
  document.fonts.ready.then(() => requestAnimationFrame(refitAll));
}
report();
