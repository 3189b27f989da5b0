// 底线流字: the bottom crawl of sponsors' promo lines (moves with transform only).
import { h, changed, graphicRoot, onAir } from '../dom.js';
import { fitText } from '../fit.js';

const PX_PER_S = 140;
const CHAR_PX = 34;       // ≈ one CJK character at the ticker's size
const LANE_PX = 1480;

export function mount(parent) {
  const root = graphicRoot(parent, 'ticker');
  const memo = {};
  const label = h('div', 'tk-label');
  const lane = h('div', 'tk-lane');
  const track = h('div', 'tk-track');
  lane.append(track);
  root.append(label, lane);
  return {
    render(state, entry) {
      onAir(root, entry);
      const lines = ((state.sponsors && state.sponsors.ticker) || []).filter((s) => s);
      const title = state.show && state.show.title;
      if (!changed(memo, 'all', [lines, title])) return;
      fitText(label, title || '够级大明星');  // the crawl's lines move: never shrunk
      track.replaceChildren(...lines.map((s) => h('span', 'tk-item', s)));
      // duration from the text length, so the speed is constant (no measuring of the laid-out width)
      const chars = lines.reduce((n, s) => n + [...s].length + 4, 0);
      const seconds = Math.max(8, (LANE_PX + chars * CHAR_PX) / PX_PER_S);
      root.style.setProperty('--tk-duration', `${seconds.toFixed(1)}s`);
      track.classList.remove('run');
      requestAnimationFrame(() => track.classList.add('run'));
    },
  };
}
