// 记牌器: how many 大王, 小王 and 2 are still out (not yet played).
import { h, text, flag, changed, graphicRoot, onAir } from '../dom.js';

const ROWS = [['R', '大王', 4], ['B', '小王', 4], ['2', '2', 16]];

export function mount(parent) {
  const root = graphicRoot(parent, 'jipaiqi');
  const memo = {};
  root.append(h('div', 'jp-head', '记牌器'), h('div', 'jp-sub', '未出'));
  const rows = {};
  for (const [k, label, full] of ROWS) {
    const row = h('div', `jp-row r${k}`);
    const count = h('span', 'jp-count');
    const bar = h('span', 'jp-bar');
    const fill = h('span', 'jp-fill');
    bar.append(fill);
    row.append(h('span', 'jp-label', label), bar, count);
    root.append(row);
    rows[k] = { row, count, fill, full };
  }
  return {
    render(state, entry) {
      onAir(root, entry);
      const j = (state.table && state.table.jipaiqi) || {};
      if (!changed(memo, 'all', j)) return;
      for (const [k, r] of Object.entries(rows)) {
        const n = Number.isInteger(j[k]) ? j[k] : r.full;
        text(r.count, n);
        flag(r.row, 'zero', n === 0);
        r.fill.style.transform = `scaleX(${Math.max(0, Math.min(1, n / r.full))})`;
      }
    },
  };
}
