// 够级英雄榜, with the 英雄榜冠名 sponsor's name in front of it.
import { h, text, flag, logo, image, changed, graphicRoot, onAir } from '../dom.js';

const MAX_ROWS = 10;

export function mount(parent) {
  const root = graphicRoot(parent, 'leaderboard');
  const memo = {};
  const head = h('div', 'lb-head');
  const sLogo = logo('lb-logo');
  const titles = h('div', 'lb-titles');
  const sponsorName = h('div', 'lb-sponsor');
  const title = h('div', 'lb-title');
  const season = h('div', 'lb-season');
  titles.append(sponsorName, title);
  head.append(sLogo, titles, season);
  const cols = h('div', 'lb-row lb-cols');
  for (const [cls, label] of [['rank', '名次'], ['name', '选手'], ['team', '队伍'], ['games', '局数'],
    ['firsts', '头科'], ['lasts', '大落'], ['points', '积分']]) cols.append(h('span', cls, label));
  const body = h('div', 'lb-body');
  root.append(head, cols, body);

  return {
    render(state, entry) {
      onAir(root, entry);
      const lb = state.leaderboard || {};
      const sp = (state.sponsors && state.sponsors.leaderboard) || {};
      if (!changed(memo, 'all', [lb, sp])) return;
      text(sponsorName, sp.name ? `${sp.name}` : '');
      flag(sponsorName, 'empty', !sp.name);
      image(sLogo, sp.logo);
      text(title, lb.title || '够级英雄榜');
      text(season, lb.season || '');
      const rows = (lb.rows || []).slice(0, MAX_ROWS);
      body.replaceChildren(...rows.map((r, i) => {
        const row = h('div', `lb-row${i < 3 ? ` top top${i + 1}` : ''}`);
        const pts = Number.isInteger(r.points) ? r.points : Number(r.points || 0).toFixed(1);
        row.append(h('span', 'rank', r.rank || i + 1), h('span', 'name', r.name), h('span', 'team', r.team),
          h('span', 'games', r.games ?? 0), h('span', 'firsts', r.firsts ?? 0), h('span', 'lasts', r.lasts ?? 0),
          h('span', 'points', pts));
        row.style.setProperty('--i', i);
        return row;
      }));
      flag(body, 'empty', rows.length === 0);
    },
  };
}
