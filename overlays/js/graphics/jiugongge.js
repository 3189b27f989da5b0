// 奖品九宫格: nine cells with the prize sponsors' logos; a draw flips the chosen cell to show its prize
// and sponsor, and a banner names the contestant, the prize and the sponsor.
import { h, flag, logo, image, changed, graphicRoot, onAir } from '../dom.js';
import { fitText } from '../fit.js';

export function mount(parent) {
  const root = graphicRoot(parent, 'jiugongge');
  const memo = {};
  const head = h('div', 'jg-head', '幸运九宫格');
  const grid = h('div', 'jg-grid');
  const cells = [];
  for (let i = 0; i < 9; i++) {
    const cell = h('div', 'jg-cell');
    cell.dataset.cell = String(i);
    const inner = h('div', 'jg-inner');
    const front = h('div', 'jg-face jg-front');
    const no = h('div', 'jg-no', String(i + 1));
    const taken = h('div', 'jg-taken', '已抽出');
    const lg = logo('jg-logo');
    const sponsor = h('div', 'jg-sponsor');
    front.append(no, lg, sponsor, taken);
    const back = h('div', 'jg-face jg-back');
    const prize = h('div', 'jg-prize');
    const bSponsor = h('div', 'jg-back-sponsor');
    const slogan = h('div', 'jg-slogan');
    back.append(prize, bSponsor, slogan);
    inner.append(front, back);
    cell.append(inner);
    grid.append(cell);
    cells.push({ cell, lg, sponsor, prize, bSponsor, slogan });
  }
  const board = h('div', 'jg-board');
  const boardLogo = logo('jg-board-logo');
  const boardName = h('span', 'jg-board-name');
  board.append(boardLogo, boardName);
  const reveal = h('div', 'jg-reveal');
  const rWho = h('div', 'jg-r-who');
  const rPrize = h('div', 'jg-r-prize');
  const rSponsor = h('div', 'jg-r-sponsor');
  reveal.append(rWho, rPrize, rSponsor);
  root.append(head, grid, reveal, board);
  let lastDrawId = null;
  let first = true;

  return {
    render(state, entry) {
      onAir(root, entry);
      const jg = state.jiugongge || {};
      const sp = state.sponsors || {};
      if (!changed(memo, 'all', [jg, sp.jiugongge_board, entry && entry.on])) return;
      const list = jg.cells || [];
      cells.forEach((c, i) => {
        const d = list[i] || {};
        image(c.lg, d.logo);
        fitText(c.sponsor, d.sponsor || '', { role: 'sponsor', lines: 2 });
        fitText(c.prize, d.prize || '', { lines: 2 });
        fitText(c.bSponsor, d.sponsor ? `${d.sponsor} 提供` : '', { role: 'sponsor', lines: 2 });
        fitText(c.slogan, d.slogan || '', { lines: 2 });
        flag(c.cell, 'blank', !d.prize && !d.sponsor);
      });
      const b = sp.jiugongge_board || {};
      image(boardLogo, b.logo);
      fitText(boardName, b.name || '', { role: 'sponsor' });
      flag(board, 'empty', !b.name && !b.logo);

      const draw = jg.draw;
      const drawKey = draw ? `${draw.id}:${draw.cell}` : null;
      // cells drawn earlier in this episode are marked (each cell is drawn once)
      const earlier = (jg.draws || []).filter((d) => !draw || d.id !== draw.id).map((d) => d.cell);
      cells.forEach((c, i) => {
        flag(c.cell, 'chosen', !!draw && draw.cell === i);
        flag(c.cell, 'taken', earlier.includes(i));
      });
      flag(root, 'drawn', !!draw);
      if (draw) {
        const d = list[draw.cell] || {};
        fitText(rWho, draw.contestant ? `恭喜 ${draw.contestant} 抽中` : '抽中');
        fitText(rPrize, d.prize || `${draw.cell + 1}号格`);
        fitText(rSponsor, d.sponsor ? `本礼品由「${d.sponsor}」提供` : '', { role: 'sponsor' });
      }
      // a new draw while the page watches is animated; one found on (re)load is shown as it stands
      const fresh = drawKey !== null && drawKey !== lastDrawId && !first;
      flag(root, 'animate', fresh || (root.classList.contains('animate') && drawKey === lastDrawId));
      if (fresh) {
        // restart the keyframes: toggling the class on the next frame replays them (no layout read)
        root.classList.remove('animate');
        requestAnimationFrame(() => root.classList.add('animate'));
      }
      lastDrawId = drawKey;
      first = false;
    },
  };
}
