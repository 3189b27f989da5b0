// 够级英雄榜, with the 英雄榜冠名 sponsor's name in front of it.
import { h, text, flag, logo, image, color, changed, graphicRoot, onAir } from '../dom.js';
import { fitText } from '../fit.js';

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
  const colName = h('span', 'name', '选手');
  const colTeam = h('span', 'team', '队伍');
  cols.append(h('span', 'rank', '名次'), colName, colTeam, h('span', 'games', '局数'), h('span', 'firsts', '头科'),
    h('span', 'lasts', '大落'), h('span', 'points', '积分'));
  const body = h('div', 'lb-body');
  root.append(head, cols, body);

  return {
    render(state, entry) {
      onAir(root, entry);
      const lb = state.leaderboard || {};
      const sp = (state.sponsors && state.sponsors.leaderboard) || {};
      if (!changed(memo, 'all', [lb, sp])) return;
      // the 英雄榜冠名 sponsor in front of the board: the placements' slot, else the season's sponsor
      const sponsor = sp.name || lb.sponsor || '';
      fitText(sponsorName, sponsor, { role: 'sponsor' }); // paid: never below its floor
      flag(sponsorName, 'empty', !sponsor);
      image(sLogo, sp.logo);
      fitText(title, lb.title || '够级英雄榜');
      fitText(season, lb.season || '', { lines: 2 });
      const teams = lb.kind === 'teams';
      text(colName, teams ? '队伍' : '选手');
      text(colTeam, teams ? '冠名' : '队伍');
      const rows = (lb.rows || []).slice(0, MAX_ROWS);
      body.replaceChildren(...rows.map((r, i) => {
        const rank = r.rank || i + 1;
        const row = h('div', `lb-row${rank <= 3 ? ` top top${rank}` : ''}`);
        const pts = Number.isInteger(r.points) ? r.points : Number(r.points || 0).toFixed(1);
        const rankCell = h('span', 'rank', rank);
        if (r.tied) rankCell.append(h('span', 'tied', '并列'));
        const team = h('span', 'team');
        fitText(team, r.team);
        team.style.setProperty('--team', color(r.team_color, 'transparent'));
        const name = h('span', 'name');
        fitText(name, r.name);
        row.append(rankCell, name, team, h('span', 'games', r.games ?? 0),
          h('span', 'firsts', r.firsts ?? 0), h('span', 'lasts', r.lasts ?? 0), h('span', 'points', pts));
        row.style.setProperty('--i', i);
        return row;
      }));
      flag(body, 'empty', rows.length === 0);
    },
  };
}
