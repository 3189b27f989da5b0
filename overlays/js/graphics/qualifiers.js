// 海选榜: the online qualifiers' top 10, with the 海选冠名 sponsor's logo and name in front of the title.
import { h, text, flag, logo, image, changed, graphicRoot, onAir } from '../dom.js';
import { fitText } from '../fit.js';

const MAX_ROWS = 10;

export function mount(parent) {
  const root = graphicRoot(parent, 'qualifiers');
  const memo = {};
  const head = h('div', 'qb-head');
  const sLogo = logo('qb-logo');
  const titles = h('div', 'qb-titles');
  const sponsorName = h('div', 'qb-sponsor');
  const title = h('div', 'qb-title');
  const summary = h('div', 'qb-summary');
  titles.append(sponsorName, title);
  head.append(sLogo, titles, summary);
  const cols = h('div', 'qb-row qb-cols');
  cols.append(h('span', 'rank', '名次'), h('span', 'name', '选手'), h('span', 'pid', '平台编号'),
    h('span', 'games', '局数'), h('span', 'rate', '头科率'), h('span', 'points', '积分'));
  const body = h('div', 'qb-body');
  const foot = h('div', 'qb-foot');
  root.append(head, cols, body, foot);

  return {
    render(state, entry) {
      onAir(root, entry);
      const qb = state.qualifiers || {};
      const sp = (state.sponsors && state.sponsors.qualifiers) || {};
      if (!changed(memo, 'all', [qb, sp])) return;
      // the 海选冠名 sponsor in front of the board: the placements' slot, else the board's own
      const sponsor = sp.name || qb.sponsor || '';
      fitText(sponsorName, sponsor, { role: 'sponsor' }); // paid: never below its floor
      flag(sponsorName, 'empty', !sponsor);
      image(sLogo, sp.logo);
      fitText(title, qb.title || '网络海选');
      fitText(summary, qb.summary || '', { lines: 2 });
      const rows = (qb.rows || []).slice(0, MAX_ROWS);
      body.replaceChildren(...rows.map((r, i) => {
        const rank = r.rank || i + 1;
        const row = h('div', `qb-row${rank <= 3 ? ` top top${rank}` : ''}`);
        const rankCell = h('span', 'rank', rank);
        if (r.tied) rankCell.append(h('span', 'tied', '并列'));
        const name = h('span', 'name');
        fitText(name, r.name);
        const pid = h('span', 'pid');
        fitText(pid, r.platform_id);
        const rate = `${(Number(r.first_rate || 0) * 100).toFixed(1)}%`;
        row.append(rankCell, name, pid, h('span', 'games', r.games ?? 0), h('span', 'rate', rate),
          h('span', 'points', r.points ?? 0));
        row.style.setProperty('--i', i);
        return row;
      }));
      flag(body, 'empty', rows.length === 0);
      fitText(foot, qb.spec || '');
    },
  };
}
