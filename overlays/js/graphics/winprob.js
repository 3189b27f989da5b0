// 胜率: the two teams' chances of winning this game, as the evaluator estimates them after every
// decision (state.winprob.current: play-outs of the game, engine/winprob.py). Labelled as an estimate;
// the bar's grey middle is a level game (neither wins).
import { h, text, flag, changed, graphicRoot, onAir } from '../dom.js';
import { fitText } from '../fit.js';

function pct(p) {
  const v = Math.round(100 * Math.max(0, Math.min(1, Number(p) || 0)));
  return `${v}%`;
}

export function mount(parent) {
  const root = graphicRoot(parent, 'winprob');
  const memo = {};
  const head = h('div', 'wp-head');
  const oddName = h('div', 'wp-team odd');
  const title = h('div', 'wp-title', '胜率（估算）');
  const evenName = h('div', 'wp-team even');
  head.append(oddName, title, evenName);
  const row = h('div', 'wp-row');
  const oddPct = h('div', 'wp-pct odd');
  const bar = h('div', 'wp-bar');
  const oddFill = h('span', 'wp-fill odd');
  const level = h('span', 'wp-fill level');
  const evenFill = h('span', 'wp-fill even');
  bar.append(oddFill, level, evenFill);
  const evenPct = h('div', 'wp-pct even');
  row.append(oddPct, bar, evenPct);
  const foot = h('div', 'wp-foot');
  root.append(head, row, foot);
  return {
    render(state, entry) {
      onAir(root, entry);
      const wp = state.winprob || {};
      const table = state.table || {};
      const teams = table.teams || {};
      const odd = teams.odd || {};
      const even = teams.even || {};
      const cur = wp.current || null;
      const shown = cur && isOfTheTable(cur, table) ? cur : null;
      const key = [cur, table.moves, table.last_move, table.game_no, table.deal, odd.label, even.label, odd.color, even.color];
      if (!changed(memo, 'all', key)) return;
      fitText(oddName, odd.label || '');
      fitText(evenName, even.label || '');
      flag(root, 'none', !cur);
      flag(root, 'pending', Boolean(cur) && !shown);
      // a figure of a position gone never airs: the bar keeps its place, dimmed, and says it is working
      const o = shown ? shown.odd : cur ? cur.odd : 0.5;
      const e = shown ? shown.even : cur ? cur.even : 0.5;
      const l = cur ? Math.max(0, 1 - o - e) : 0;
      text(oddPct, shown ? pct(o) : cur ? '…' : '—');
      text(evenPct, shown ? pct(e) : cur ? '…' : '—');
      oddFill.style.flexGrow = String(o);
      level.style.flexGrow = String(l);
      evenFill.style.flexGrow = String(e);
      if (odd.color) oddFill.style.background = odd.color;
      if (even.color) evenFill.style.background = even.color;
      root.dataset.moves = shown ? String(shown.moves) : '';
      fitText(foot, footLine(shown, cur, table));
    },
  };
}

// the estimate is of the position on the table: the same game and deal (a re-deal under the same game
// number is another deal), as many decisions, the same last one
export function isOfTheTable(cur, table) {
  return cur.moves === (table.moves || 0) && (cur.line || '') === (table.last_move || '')
    && (cur.game_no === undefined || cur.game_no === table.game_no)
    && (cur.deal === undefined || cur.deal === (table.deal || 0));
}

function footLine(shown, cur, table) {
  if (!cur) return '等待估算';
  if (!shown) return `第${table.moves || 0}步 估算中…`;
  if (shown.hands === 'over') return '本局结果';
  const at = shown.moves ? `第${shown.moves}步后` : '开局';
  return `${at} · 平局 ${pct(shown.level)} · ${shown.playouts}次推演估算`;
}
