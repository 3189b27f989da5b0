// The commentators' screen: renders the view the commentators' server sends (broadcast/commentators/view.py)
// after every change. Text only (textContent), never HTML. Chinese first; `?lang=en` (the switch in the
// header) gives the English screen, English throughout: the view sends the engine's words in both
// languages (`…_en`), the page's own words are here and in index.html's data-en; only the players' and
// teams' own names are shown as entered.
const $ = (id) => document.getElementById(id);
const EN = new URLSearchParams(location.search).get('lang') === 'en';
const t = (zh, en) => (EN ? en : zh);
// an English count, "1 card" / "2 cards" (as engine/english.py's count)
const count = (n, one, many) => `${n} ${Number(n) === 1 ? one : many || `${one}s`}`;
const seatOf = (n) => t(`${n}号`, `Seat ${n}`);
const RULES = { tv_match: ['比赛规则', 'match rules'], dagang: ['大纲', 'Gouji outline rules'] };

if (EN) {
  document.documentElement.lang = 'en';
  document.title = 'Commentators · win probability and hands';
  for (const e of document.querySelectorAll('[data-en]')) e.textContent = e.dataset.en;
}
$('lang').href = EN ? '?lang=zh' : '?lang=en';
const NS = 'http://www.w3.org/2000/svg';

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

const pct = (p) => `${Math.round(100 * Math.max(0, Math.min(1, Number(p) || 0)))}%`;

function renderSeats(v) {
  const box = $('seats');
  box.replaceChildren();
  for (const s of v.seats || []) {
    const card = el('div', `seat ${s.team}`);
    card.dataset.seat = s.seat;
    if (v.to_act === s.seat) card.classList.add('turn');
    if (s.state && s.state !== 'in_play') card.classList.add('out');
    const head = el('div', 's-head');
    head.append(el('span', 's-seat', seatOf(s.seat)), el('span', 's-name', s.name || ''));
    const tags = el('span', 's-tags');
    if (s.state && s.state !== 'in_play' && s.state !== 'finished') tags.append(el('span', 'tag', t(s.status, s.status_en)));
    if (s.title) tags.append(el('span', 'tag title', t(s.title, s.title_en)));
    if (s.baopai !== null && s.baopai !== undefined) tags.append(el('span', 'tag baopai', t(`报${s.baopai}张`, `${s.baopai} left`)));
    if (s.burner) tags.append(el('span', 'tag burn', t(...v.seat_words.burning)));
    if (s.wutou) tags.append(el('span', 'tag', t(...v.seat_words.wutou)));
    if (v.to_act === s.seat) tags.append(el('span', 'tag turn', t('轮到', 'to act')));
    head.append(tags);
    card.append(head);
    if (s.cards_left !== undefined) card.append(el('div', 's-count', t(`余${s.cards_left}张`, `${count(s.cards_left, 'card')} left`)));
    const hand = el('div', 's-hand');
    if (s.hand === null || s.hand === undefined) {
      hand.textContent = t('手牌未录入', 'hand not entered');
      hand.classList.add('unknown');
    } else if (!s.hand) {
      hand.textContent = '—';
    } else {
      for (const run of s.hand.match(/(.)\1*/g)) hand.append(el('span', 'run', run)); // one rank a group
    }
    hand.dataset.hand = s.hand || '';
    card.append(hand);
    const b = s.beats;
    let beat = '';
    if (b && v.top && v.top.seat !== s.seat && !card.classList.contains('out')) {
      beat = b.count
        ? t(`可上：${b.lowest}（${b.label}）起，共${b.count}种${b.may ? '' : ' · 此刻不能出'}`,
          `Can beat: ${b.lowest} and up (${count(b.count, 'way')})${b.may ? '' : ' · not now'}`)
        : t('无牌可上', 'nothing beats it');
    }
    const line = el('div', 's-beat', beat);
    if (b && b.count) line.title = t(b.label, `lowest: ${b.label_en}`);
    if (b && !b.count) line.classList.add('none');
    card.append(line);
    card.append(el('div', 's-expect', expectLine(s.expect, v)));
    box.append(card);
  }
}

// what the evaluator expects of a seat (its likeliest title, mean place and points), once the 胜率 is of
// the position on the table
function expectLine(e, v) {
  const cur = (v.winprob || {}).current;
  if (!cur) return '';
  if (!e) return (v.winprob || {}).fresh ? '' : t('预计：估算中…', 'Expected: estimating…');
  const sign = e.points >= 0 ? '+' : '';
  if (EN) {
    const title = e.title ? `${e.title_en} (${pct(e.chance)})` : '';
    const points = e.points === null || e.points === undefined ? '' : ` · avg ${sign}${e.points.toFixed(1)} pts`;
    return `Expected: ${title} · avg place ${e.place.toFixed(1)}${points}`;
  }
  const title = e.title ? `${e.title}（${pct(e.chance)}）` : '';
  const points = e.points === null || e.points === undefined ? '' : ` · 平均${sign}${e.points.toFixed(1)}分`;
  return `预计：${title} · 平均第${e.place.toFixed(1)}名${points}`;
}

function renderChart(history) {
  const svg = $('chart');
  svg.replaceChildren();
  const W = 560, H = 280;
  for (const y of [0.25, 0.5, 0.75]) {
    const l = document.createElementNS(NS, 'line');
    l.setAttribute('x1', 0); l.setAttribute('x2', W); l.setAttribute('y1', H * (1 - y)); l.setAttribute('y2', H * (1 - y));
    l.setAttribute('stroke', y === 0.5 ? '#55607f' : '#2c3350'); l.setAttribute('stroke-width', 1);
    svg.append(l);
  }
  if (!history || history.length < 1) return;
  const last = history[history.length - 1].moves || 1;
  const first = history[0].moves || 0;
  const span = Math.max(1, last - first);
  for (const [key, color] of [['odd', '#ff6b5e'], ['even', '#6fa3ff']]) {
    const pts = history.map((h) => `${((h.moves - first) / span) * W},${H * (1 - h[key])}`).join(' ');
    const p = document.createElementNS(NS, 'polyline');
    p.setAttribute('points', pts); p.setAttribute('fill', 'none'); p.setAttribute('stroke', color); p.setAttribute('stroke-width', 3);
    p.dataset.team = key;
    svg.append(p);
  }
}

function render(v) {
  const teams = v.teams || {};
  const rules = RULES[v.rules] || RULES.tv_match;
  $('game').textContent = t(`第${v.game_no}局 · ${rules[0]} · 第${v.moves}步`, `Game ${v.game_no} · ${rules[1]} · move ${v.moves}`);
  $('top').textContent = v.top
    ? t(`台面：${v.top.seat}号 ${v.top.play}（${v.top.label}）`, `On the table: seat ${v.top.seat} ${v.top.play} (${v.top.label_en})`)
    : (v.to_act ? t(`${v.to_act}号发牌`, `Seat ${v.to_act} leads`) : '');
  renderSeats(v);
  const wp = v.winprob || {};
  const cur = wp.current && wp.fresh ? wp.current : null; // never the figures of a position gone
  const odd = teams.odd || {}, even = teams.even || {};
  $('wp-odd-name').textContent = t(odd.label, odd.label_en) || '';
  $('wp-even-name').textContent = t(even.label, even.label_en) || '';
  $('wp-odd').textContent = cur ? pct(cur.odd) : '—';
  $('wp-even').textContent = cur ? pct(cur.even) : '—';
  const [fo, fl, fe] = $('wp-bar').children;
  fo.style.flexGrow = cur ? cur.odd : 1; fl.style.flexGrow = cur ? Math.max(0, 1 - cur.odd - cur.even) : 0;
  fe.style.flexGrow = cur ? cur.even : 1;
  $('wp-note').textContent = cur
    ? (cur.hands === 'over' ? t('本局结果', 'the game\'s result') : t(
      `第${cur.moves}步后 · ${cur.playouts}次推演，${cur.hands === 'known' ? '按录入的手牌' : '未知手牌按已出的牌抽样'}；平局 ${pct(cur.level)}`,
      `after move ${cur.moves} · ${count(cur.playouts, 'play-out')}, ${cur.hands === 'known' ? 'with the hands as entered' : 'unknown hands sampled from the cards played'}; level ${pct(cur.level)}`))
    : wp.current ? t(`第${v.moves}步 估算中…`, `move ${v.moves}: estimating…`) : t('等待估算', 'waiting for an estimate');
  $('wp-now').classList.toggle('pending', Boolean(wp.current) && !cur);
  renderChart((v.winprob || {}).history || []);
  const list = $('moments');
  list.replaceChildren();
  for (const m of v.moments || []) {
    const li = el('li', m.delta >= 0 ? 'up' : 'down');
    const words = EN ? (m.words_en || []).join(', ') : (m.words || []).join('、');
    li.textContent = t(`第${m.moves}步 ${m.line}${words ? ' ' + words : ''}：单号队 ${pct(m.before)} → ${pct(m.after)}`,
      `Move ${m.moves} · ${m.line}${words ? ' · ' + words : ''}: odd seats ${pct(m.before)} → ${pct(m.after)}`);
    list.append(li);
  }
  const rep = (v.seats || []).filter((s) => s.baopai !== null && s.baopai !== undefined);
  $('baopai').textContent = rep.length
    ? rep.map((s) => t(`${s.seat}号 ${s.baopai}张`, `seat ${s.seat}: ${s.baopai}`)).join(t('　', ' · '))
    : t('无（都在十张以上）', 'none (all above ten cards)');
  if (v.error) $('top').textContent = t(v.error, v.error_en);
  window.__view = v;
}

function connect() {
  const link = $('link');
  const ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = () => { link.textContent = t('已连接', 'connected'); link.classList.remove('down'); };
  ws.onmessage = (e) => { try { render(JSON.parse(e.data)); window.__frames = (window.__frames || 0) + 1; } catch (err) { console.error(err); } };
  ws.onclose = () => { link.textContent = t('连接中断，重连中…', 'connection lost, reconnecting…'); link.classList.add('down'); setTimeout(connect, 1000); };
}
connect();
