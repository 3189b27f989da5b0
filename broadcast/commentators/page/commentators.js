// The commentators' screen: renders the view the commentators' server sends (broadcast/commentators/view.py)
// after every change. Text only (textContent), never HTML.
const $ = (id) => document.getElementById(id);
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
    if (s.status && s.status !== '在打') card.classList.add('out');
    const head = el('div', 's-head');
    head.append(el('span', 's-seat', `${s.seat}号`), el('span', 's-name', s.name || ''));
    const tags = el('span', 's-tags');
    if (s.status && s.status !== '在打' && s.status !== '已出完') tags.append(el('span', 'tag', s.status));
    if (s.title) tags.append(el('span', 'tag title', s.title));
    if (s.baopai !== null && s.baopai !== undefined) tags.append(el('span', 'tag baopai', `报${s.baopai}张`));
    if (s.burner) tags.append(el('span', 'tag burn', '烧牌中'));
    if (s.wutou) tags.append(el('span', 'tag', '无头'));
    if (v.to_act === s.seat) tags.append(el('span', 'tag turn', '轮到'));
    head.append(tags);
    card.append(head);
    if (s.cards_left !== undefined) card.append(el('div', 's-count', `余${s.cards_left}张`));
    const hand = el('div', 's-hand');
    if (s.hand === null || s.hand === undefined) {
      hand.textContent = '手牌未录入';
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
      beat = b.count ? `可上：${b.lowest}（${b.label}）起，共${b.count}种${b.may ? '' : ' · 此刻不能出'}` : '无牌可上';
    }
    const line = el('div', 's-beat', beat);
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
  if (!e) return (v.winprob || {}).fresh ? '' : '预计：估算中…';
  const title = e.title ? `${e.title}（${pct(e.chance)}）` : '';
  const points = e.points === null || e.points === undefined ? '' : ` · 平均${e.points >= 0 ? '+' : ''}${e.points.toFixed(1)}分`;
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
  $('game').textContent = `第${v.game_no}局 · ${v.rules === 'dagang' ? '大纲' : '比赛规则'} · 第${v.moves}步`;
  $('top').textContent = v.top ? `台面：${v.top.seat}号 ${v.top.play}（${v.top.label}）` : (v.to_act ? `${v.to_act}号发牌` : '');
  renderSeats(v);
  const wp = v.winprob || {};
  const cur = wp.current && wp.fresh ? wp.current : null; // never the figures of a position gone
  const odd = teams.odd || {}, even = teams.even || {};
  $('wp-odd-name').textContent = odd.label || '';
  $('wp-even-name').textContent = even.label || '';
  $('wp-odd').textContent = cur ? pct(cur.odd) : '—';
  $('wp-even').textContent = cur ? pct(cur.even) : '—';
  const [fo, fl, fe] = $('wp-bar').children;
  fo.style.flexGrow = cur ? cur.odd : 1; fl.style.flexGrow = cur ? Math.max(0, 1 - cur.odd - cur.even) : 0;
  fe.style.flexGrow = cur ? cur.even : 1;
  $('wp-note').textContent = cur
    ? (cur.hands === 'over' ? '本局结果' : `第${cur.moves}步后 · ${cur.playouts}次推演，${cur.hands === 'known' ? '按录入的手牌' : '未知手牌按已出的牌抽样'}；平局 ${pct(cur.level)}`)
    : wp.current ? `第${v.moves}步 估算中…` : '等待估算';
  $('wp-now').classList.toggle('pending', Boolean(wp.current) && !cur);
  renderChart((v.winprob || {}).history || []);
  const list = $('moments');
  list.replaceChildren();
  for (const m of v.moments || []) {
    const li = el('li', m.delta >= 0 ? 'up' : 'down');
    const words = (m.words || []).join('、');
    li.textContent = `第${m.moves}步 ${m.line}${words ? ' ' + words : ''}：单号队 ${pct(m.before)} → ${pct(m.after)}`;
    list.append(li);
  }
  const rep = (v.seats || []).filter((s) => s.baopai !== null && s.baopai !== undefined);
  $('baopai').textContent = rep.length ? rep.map((s) => `${s.seat}号 ${s.baopai}张`).join('　') : '无（都在十张以上）';
  if (v.error) $('top').textContent = v.error;
  window.__view = v;
}

function connect() {
  const link = $('link');
  const ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = () => { link.textContent = '已连接'; link.classList.remove('down'); };
  ws.onmessage = (e) => { try { render(JSON.parse(e.data)); window.__frames = (window.__frames || 0) + 1; } catch (err) { console.error(err); } };
  ws.onclose = () => { link.textContent = '连接中断，重连中…'; link.classList.add('down'); setTimeout(connect, 1000); };
}
connect();
