// 计分板: the six seats around the table (playing order counterclockwise, 对头 opposite), cards left
// with the 报牌 highlight (G5.6, as the engine reports it), whose turn it is, the last play, titles,
// game N of M and the match totals. The title sponsor's logo sits at the centre of the table.
// Every rule word (报牌, titles, who passed, team names, the play's label) comes decided in the state.
import { h, text, flag, data, logo, image, color, cardText, changed, graphicRoot, onAir } from '../dom.js';
import { fitText } from '../fit.js';

function seatPlate() {
  const el = h('div', 'seat');
  const stripe = h('div', 'stripe');
  const num = h('div', 'num');
  const name = h('div', 'name');
  const tags = h('div', 'tags');
  const pass = h('span', 'tag pass', '过');
  const burn = h('span', 'tag burn', '烧牌');
  const wutou = h('span', 'tag wutou', '无头');
  const opened = h('span', 'tag opened', '开点');
  tags.append(pass, burn, wutou, opened);
  const count = h('div', 'count');
  const cards = h('span', 'cards');
  const unit = h('span', 'unit', '张');
  count.append(cards, unit);
  const title = h('div', 'title');
  const turn = h('div', 'turn-mark');
  const info = h('div', 'info');
  info.append(name, tags);
  el.append(stripe, num, info, count, title, turn);
  return { el, num, name, cards, title, pass, burn, wutou, opened };
}

export function mount(parent) {
  const root = graphicRoot(parent, 'scoreboard');
  const memo = {};

  const head = h('div', 'sb-head');
  const game = h('div', 'sb-game');
  const gameNo = h('span', 'game-no');
  const gameOf = h('span', 'game-of');
  game.append(gameNo, gameOf);
  const teamBox = (side) => {
    const t = h('div', `sb-team ${side}`);
    const n = h('span', 'team-name');
    const p = h('span', 'team-points');
    t.append(n, p);
    return { t, n, p };
  };
  const odd = teamBox('odd');
  const even = teamBox('even');
  const vs = h('div', 'sb-vs', ':');
  const results = h('div', 'sb-results');
  head.append(game, odd.t, vs, even.t);

  const table = h('div', 'sb-table');
  const disc = h('div', 'disc');
  const discLogo = logo('disc-logo');
  const discName = h('div', 'disc-name');
  const discCap = h('div', 'disc-cap', '独家冠名');
  disc.append(discLogo, discName, discCap);
  table.append(disc);
  const seats = {};
  for (let s = 1; s <= 6; s++) {
    const p = seatPlate();
    p.el.classList.add(`pos${s}`);
    table.append(p.el);
    seats[s] = p;
  }

  const foot = h('div', 'sb-foot');
  const lpLabel = h('span', 'lp-caption', '上手');
  const lpSeat = h('span', 'lp-seat');
  const lpName = h('span', 'lp-name');
  const lpPlay = h('span', 'lp-play');
  const lpCards = h('span', 'lp-cards');
  const lpGouji = h('span', 'tag gouji', '够级');
  const lpBurn = h('span', 'tag burn', '烧牌');
  const lastPlay = h('div', 'last-play');
  lastPlay.append(lpLabel, lpSeat, lpName, lpPlay, lpGouji, lpBurn);
  const turnLine = h('div', 'turn-line');
  const turnCap = h('span', 'turn-caption', '轮到');
  const turnName = h('span', 'turn-name');
  turnLine.append(turnCap, turnName);
  const message = h('div', 'sb-message');
  const messageText = h('div', 'sb-message-text');
  message.append(messageText);
  // the last play's words on the first line, whose turn on the second, the cards at the second's right
  foot.append(lastPlay, turnLine, lpCards);

  root.append(head, results, table, foot, message);

  function renderTable(t, sponsor, showTitle) {
    text(gameNo, `第${t.game_no}局`);
    text(gameOf, `共${t.games_in_match}局`);
    const teams = t.teams || {};
    for (const [side, box] of [['odd', odd], ['even', even]]) {
      const team = teams[side] || {};
      fitText(box.n, team.label || '');
      text(box.p, team.points ?? 0);
    }
    for (const side of ['odd', 'even']) {  // a team's own colour, else the design token (tokens.css)
      const c = color(teams[side] && teams[side].color, '');
      if (c) root.style.setProperty(`--${side}`, c);
      else root.style.removeProperty(`--${side}`);
    }

    // per-game results strip
    const res = t.results || [];
    if (changed(memo, 'results', res)) {
      results.replaceChildren(...res.map((r) => {
        const pip = h('span', `pip ${r.odd > r.even ? 'odd' : r.even > r.odd ? 'even' : 'draw'}`);
        pip.append(h('span', 'pip-no', `第${r.game_no}局`), h('span', 'pip-score', `${r.odd}:${r.even}`));
        if (r.quan_san) pip.append(h('span', 'pip-qs', '圈三'));
        return pip;
      }));
    }
    flag(results, 'empty', res.length === 0);

    const byNo = {};
    for (const s of t.seats || []) byNo[s.seat] = s;
    for (let n = 1; n <= 6; n++) {
      const s = byNo[n] || { seat: n, name: '', cards_left: 0, status: 'playing', title: null };
      const p = seats[n];
      text(p.num, n);
      fitText(p.name, s.name || `${n}号位`, { lines: 2 });
      data(p.el, 'team', s.team || (n % 2 ? 'odd' : 'even'));
      const finished = !!s.title;
      text(p.cards, finished ? '' : s.cards_left);
      text(p.title, s.title || '');
      data(p.el, 'title', s.title || '');
      data(p.el, 'status', s.status || 'playing');
      flag(p.el, 'finished', finished);
      flag(p.el, 'baopai', !!s.baopai);
      flag(p.el, 'turn', t.phase === 'playing' && t.turn === n);
      flag(p.el, 'passed', !!s.passed);
      flag(p.el, 'burning', s.status === 'burning');
      flag(p.el, 'wutou', s.status === 'wutou');
      flag(p.el, 'opened', !!s.opened);
    }

    const lp = t.last_play;
    flag(lastPlay, 'empty', !lp);
    flag(lpCards, 'empty', !lp);
    if (lp) {
      const who = byNo[lp.seat] || {};
      text(lpSeat, `${lp.seat}号`);
      fitText(lpName, who.name || '');
      fitText(lpPlay, lp.label || '');
      flag(lpGouji, 'show', !!lp.gouji);
      flag(lpBurn, 'show', !!lp.burn);
      data(lastPlay, 'team', lp.seat % 2 ? 'odd' : 'even');
      if (changed(memo, 'lpcards', lp.cards)) {
        const cards = [...(lp.cards || '')];
        lpCards.replaceChildren(...(cards.length <= 14 ? cards.map((c) => h('span', `chip r${c}`, cardText(c))) : []));
      }
    }
    const turnSeat = t.phase === 'playing' ? t.turn : null;
    flag(turnLine, 'empty', !turnSeat);
    if (turnSeat) {
      const who = byNo[turnSeat] || {};
      fitText(turnName, `${turnSeat}号 ${who.name || ''}`.trim());
      data(turnLine, 'team', turnSeat % 2 ? 'odd' : 'even');
    }
    fitText(messageText, t.message || '', { lines: 2 });
    flag(message, 'empty', !t.message);
    flag(root, 'has-message', !!t.message); // the line takes the foot's place (the foot is not drawn under it)
    data(root, 'phase', t.phase || 'idle');

    image(discLogo, sponsor.logo);
    // the 冠名's paid name at the centre of the table (else the show's title, not a paid name)
    fitText(discName, sponsor.name || showTitle || '', { role: sponsor.name ? 'sponsor' : 'text', lines: 2 });
    flag(discCap, 'empty', !sponsor.name);
    flag(disc, 'no-logo', !sponsor.logo);
  }

  return {
    render(state, entry) {
      onAir(root, entry);
      const sponsor = (state.sponsors && state.sponsors.title) || {};
      const showTitle = state.show && state.show.title;
      if (changed(memo, 'all', [state.table, sponsor, showTitle])) renderTable(state.table || {}, sponsor, showTitle);
    },
  };
}
