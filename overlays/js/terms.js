// Where an on-air text may break onto another line: only between terms. The same rule, and the same
// code line for line, as the native OBS graphics' broadcast/obs/graphics/terms.py (both are held to one
// list of cases by tests/overlay/test_terms.py).
//
// A team name, a player name and a score ("11 : 11") are each one term: a name breaks only at a space or
// a middle dot of its own, a score never; the names come from the state (stateTerms). A text is shrunk
// first (fit.js); only a text that does not fit on one line at its floor is broken, at the best kind of
// place it has: 1 SPACE at a space (also the ideographic space) or after a middle dot ·; 2 PUNCT after
// Chinese punctuation; 3 HAN between two Chinese characters outside the terms (never inside a Latin word
// or a number, never before closing punctuation or after opening); 4 INSIDE the last resort of a text
// that is one name and nothing else and fits on no line at its floor: between its characters.

export const SPACE = 1;
export const PUNCT = 2;
export const HAN = 3;
export const INSIDE = 4;
const DOTS = '·・';
const CLOSING = '，。、；：！？）」』》〉】〕”’…,.;:!?)]}%';
const OPENING = '（「『《〈【〔“‘([{';
const SCORE = /\d+\s*[:：]\s*\d+/g;
const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u;
const isSpace = (ch) => /\s/u.test(ch);

function han(ch) {
  if (!ch || CLOSING.includes(ch) || OPENING.includes(ch) || DOTS.includes(ch)) return false;
  return WIDE.test(ch) && !isSpace(ch);
}

function kindOf(before, after) {
  if (CLOSING.includes(after) || OPENING.includes(before)) return 0;
  if (DOTS.includes(before)) return SPACE;
  if (CLOSING.includes(before)) return PUNCT;
  if (han(before) || han(after)) return DOTS.includes(after) ? 0 : HAN;
  return 0;
}

/** The best kind of place each place may break at: INSIDE outside every term, SPACE inside a name, 0
 * inside a score (index i: the place before the i-th code point). */
function limits(value, text, terms) {
  const limit = new Array(text.length + 1).fill(INSIDE);
  const cp = []; // UTF-16 index → code point index
  let u = 0;
  text.forEach((ch, i) => { cp[u] = i; u += ch.length; });
  cp[u] = text.length;
  for (const m of value.matchAll(SCORE)) {
    for (let i = cp[m.index] + 1; i < cp[m.index + m[0].length]; i += 1) limit[i] = 0;
  }
  const unique = [...new Set(terms.filter((t) => [...t].length > 1))].sort((a, b) => [...b].length - [...a].length);
  for (const term of unique) {
    let start = value.indexOf(term);
    while (start >= 0) {
      for (let i = cp[start] + 1; i < cp[start + term.length]; i += 1) limit[i] = Math.min(limit[i], SPACE);
      start = value.indexOf(term, start + term.length);
    }
  }
  return limit;
}

/** `text` cut at every place of `kind` or better the terms allow: [{text, sep, kind}]. */
export function pieces(value, terms = [], kind = HAN) {
  const text = [...value]; // code points, as Python counts them
  const limit = kind >= INSIDE ? new Array(text.length + 1).fill(INSIDE) : limits(value, text, terms);
  const out = [];
  let start = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (isSpace(ch) && i > start) {
      let j = i;
      while (j < n && isSpace(text[j])) j += 1;
      if (j < n && Math.min(limit[i], limit[j]) >= SPACE) {
        out.push({ text: text.slice(start, i).join(''), sep: text.slice(i, j).join(''), kind: SPACE });
        start = j;
        i = j;
        continue;
      }
      i = j;
      continue;
    }
    if (i > start && !isSpace(text[i - 1]) && !isSpace(ch)) {
      const k = kind >= INSIDE ? INSIDE : kindOf(text[i - 1], ch);
      if (k && k <= Math.min(kind, limit[i])) {
        out.push({ text: text.slice(start, i).join(''), sep: '', kind: k });
        start = i;
      }
    }
    i += 1;
  }
  if (start < n || out.length === 0) out.push({ text: text.slice(start).join(''), sep: '', kind: 0 });
  return out;
}

/** The names in the state, each one term on air (as terms.py's state_terms). */
export function stateTerms(state) {
  const out = [];
  const table = (state && state.table) || {};
  for (const team of Object.values(table.teams || {})) out.push(String(team.name || ''), String(team.label || ''));
  for (const s of table.seats || []) out.push(String(s.name || ''));
  const jg = (state && state.jiugongge) || {};
  out.push(String((jg.draw && jg.draw.contestant) || ''));
  out.push(String((state && state.lower_third && state.lower_third.name) || ''));
  for (const row of ((state && state.leaderboard) || {}).rows || []) out.push(String(row.name || ''), String(row.team || ''));
  return [...new Set(out.map((t) => t.trim()).filter((t) => [...t].length > 1))].sort();
}
