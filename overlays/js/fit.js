// One fitting rule for every on-air text, shared by all the graphics (docs/overlays.md, "Text fits").
//
// A text is drawn at its designed size (its CSS font-size) and shrunk only as much as its box needs,
// never below its floor: a fraction of the designed size taken from the design tokens
// (--fit-floor-sponsor for paid sponsor names, which keep the prominence their slot promises;
// --fit-floor-text for any other text) and never below --fit-min. A text that still does not fit at its
// floor ends with an ellipsis (CSS text-overflow, or line-clamp when it may wrap), so nothing ever
// leaves its box. With `lines` > 1 a text may wrap onto that many (balanced) lines before it shrinks.
// The native OBS graphics apply the same rule (broadcast/obs/graphics/fit.py), and every text field's
// maximum length is declared once, in the schema (maxLength), where input longer than it is refused.
//
// Graphics call fitText(el, value, {role, lines}) while they render (the text goes in as textContent:
// never as HTML); page.js calls fitPending() once every graphic has rendered the frame. It measures all
// the texts set in that frame together: one layout for all of them at their designed size, then a few
// more only while some of them must shrink (one binary search shared by all). Fonts that arrive later
// refit every text. window.__fit tells tests what happened: {runs, pending, fonts}.

const STEP = 0.5; // px: how finely a size is searched
const pending = new Set(); // texts to (re)fit at the next pass
const hidden = new Set(); // texts not laid out (display: none) at their pass: tried again at every pass
const known = new Set(); // every fitted text still in the page (refit when fonts arrive)
let runs = 0;

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
  if (el.textContent !== v) el.textContent = v;
  const spec = `${role}/${lines}`;
  if (el.dataset.fitSpec !== spec) {
    el.dataset.fitSpec = spec;
    el.dataset.fitRole = role;
    el.dataset.fitLines = String(lines);
    el.classList.toggle('fit-line', lines <= 1);
    el.classList.toggle('fit-lines', lines > 1);
    el.style.webkitLineClamp = lines > 1 ? String(lines) : '';
  }
  pending.add(el);
  known.add(el);
}

/** Does the text of `el` fit: no wider than its content box, on no more lines than it may take? */
function fits(el) {
  const range = document.createRange();
  range.selectNodeContents(el);
  const rects = [...range.getClientRects()].filter((r) => r.width > 0 || r.height > 0);
  if (rects.length === 0) return true;
  const cs = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  const left = box.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
  const right = box.right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight);
  const size = parseFloat(cs.fontSize);
  const tops = [];
  for (const r of rects) {
    if (r.left < left - 0.5 || r.right > right + 0.5) return false;
    if (!tops.some((t) => Math.abs(t - r.top) < size * 0.5)) tops.push(r.top);
  }
  return tops.length <= Number(el.dataset.fitLines || 1);
}

function setSize(el, px) {
  const v = px === null ? '' : `${px}px`;
  if (el.style.fontSize !== v) el.style.fontSize = v;
}

/** Fit every text set since the last pass. Returns how many were measured. */
export function fitPending() {
  if (pending.size === 0) return 0;
  const els = [...new Set([...pending, ...hidden])].filter((el) => el.isConnected);
  pending.clear();
  hidden.clear();
  for (const el of known) if (!el.isConnected) known.delete(el);
  for (const el of els) setSize(el, null); // every text at its designed size …
  const todo = [];
  const verdict = new Map();
  for (const el of els) { // … measured together (one layout)
    if (el.getClientRects().length === 0) { // not laid out (display: none): fitted when it shows
      hidden.add(el);
      continue;
    }
    if (!el.textContent || fits(el)) {
      verdict.set(el, 'base');
      continue;
    }
    const base = parseFloat(getComputedStyle(el).fontSize);
    todo.push({ el, base, lo: floorOf(el.dataset.fitRole, base), hi: base });
  }
  for (const t of todo) setSize(t.el, t.lo); // the floor: does it fit there at all?
  let open = [];
  for (const t of todo) {
    if (fits(t.el)) open.push(t);
    else verdict.set(t.el, 'ellipsis'); // stays at its floor, ends with …
  }
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
  for (const t of todo) {
    if (verdict.get(t.el) === 'ellipsis') continue;
    setSize(t.el, t.lo);
    verdict.set(t.el, t.lo < t.base ? 'shrunk' : 'base');
  }
  for (const [el, how] of verdict) if (el.dataset.fit !== how) el.dataset.fit = how;
  runs += 1;
  report();
  return els.length;
}

function report() {
  window.__fit = { runs, pending: pending.size, fonts: document.fonts ? document.fonts.status : 'loaded' };
}

/** Refit every text (fonts arrived, or the page was resized). */
export function refitAll() {
  for (const el of known) pending.add(el);
  fitPending();
  report();
}

if (document.fonts) {
  document.fonts.addEventListener('loadingdone', () => requestAnimationFrame(refitAll));
  document.fonts.ready.then(() => requestAnimationFrame(refitAll));
}
report();
