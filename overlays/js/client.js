// The on-air pages' connection to the overlay server: a snapshot on connect, then patches; reconnects
// by itself (after a page reload, a server restart or a dead link) with backoff; renders in
// requestAnimationFrame, at most once per frame, and records what reached the screen in
// window.__rendered (and echoes it to the server when the page was opened with echo=1, or runs inside
// OBS's browser source — window.obsstudio exists — where the echo is the as-run log's evidence of air).
// Every snapshot or patch applied is acknowledged (ack=1): the server sends a page the latest state
// when it has taken the previous ones, never a backlog of stale states queued in its socket.

const HB_TIMEOUT_MS = 7000;   // the server sends a heartbeat every 2 s
const BACKOFF_MIN_MS = 150;
const BACKOFF_MAX_MS = 2000;

export function pageParams(defaultBus = 'program') {
  const q = new URLSearchParams(location.search);
  const bus = q.get('bus') || document.body.dataset.bus || defaultBus;
  return {
    bus: bus === 'preview' ? 'preview' : 'program',
    token: q.get('token') || '',
    echo: q.get('echo') === '1',
    insideObs: typeof window.obsstudio !== 'undefined',
  };
}

export class Feed {
  constructor({ bus, token = '', echo = false, insideObs = false, onFrame }) {
    this.bus = bus;
    this.token = token;
    this.insideObs = insideObs;
    this.echo = echo || insideObs;
    this.onFrame = onFrame;
    this.state = null;
    this.seq = -1;
    this.ws = null;
    this.attempt = 0;
    this.reconnects = 0;
    this.framePending = false;
    this.lastMessage = 0;
    this.renderedSeq = -1;
    this.frames = 0;
    window.__rendered = { seq: -1, bus, at: 0, frames: 0 };
    window.__overlay = this;
    this.connect();
    setInterval(() => this.watchdog(), 1000);
  }

  get connected() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = new URLSearchParams({ bus: this.bus, ack: '1' });
    if (this.token) q.set('token', this.token);
    if (this.echo) q.set('echo', '1');
    if (this.insideObs) q.set('obs', '1');
    return `${proto}//${location.host}/ws?${q}`;
  }

  connect() {
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.lastMessage = performance.now();
      document.documentElement.dataset.link = 'up';
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = () => {
      if (this.ws === ws) {
        this.ws = null;
        document.documentElement.dataset.link = 'down';
        this.retry();
      }
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  retry() {
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 8);
    this.reconnects += 1;
    setTimeout(() => this.connect(), base + Math.random() * 100);
  }

  watchdog() {
    if (this.connected && performance.now() - this.lastMessage > HB_TIMEOUT_MS) {
      this.ws.close();   // silent link: drop it and reconnect
    }
  }

  receive(raw) {
    this.lastMessage = performance.now();
    this.arrivedAt = this.lastMessage;
    let msg;
    try {
      msg = JSON.parse(raw);
    } catch (e) {
      return;
    }
    if (msg.type === 'snapshot' || msg.type === 'patch') {
      this.send({ type: 'ack', seq: msg.seq });   // taken: the server may send the next one
    }
    if (msg.type === 'snapshot') {
      this.state = msg.state;
      this.seq = msg.seq;
    } else if (msg.type === 'patch') {
      if (!this.state) {
        this.send({ type: 'resync' });
        return;
      }
      if (msg.seq <= this.seq) return;
      const next = Object.assign({}, this.state);
      for (const [k, v] of Object.entries(msg.set)) next[k] = v;
      this.state = next;
      this.seq = msg.seq;
    } else {
      return;   // heartbeat
    }
    this.schedule();
  }

  send(obj) {
    if (this.connected) this.ws.send(JSON.stringify(obj));
  }

  schedule() {
    if (this.framePending) return;
    this.framePending = true;
    requestAnimationFrame(() => this.frame());
  }

  frame() {
    const frameStart = performance.now();
    this.framePending = false;
    if (!this.state) return;
    const seq = this.seq;
    if (seq !== this.renderedSeq) {
      try {
        this.onFrame(this.state, seq);
      } catch (e) {
        console.error('render failed', e);
      }
      this.renderedSeq = seq;
    }
    this.frames += 1;
    window.__rendered = { seq, bus: this.bus, at: performance.now(), frames: this.frames };
    if (this.echo) {
      // page clock (ms since the epoch): when the state arrived and when this frame began rendering it
      const origin = performance.timeOrigin;
      this.send({ type: 'rendered', seq, arrived: origin + this.arrivedAt, frame: origin + frameStart,
        sent: origin + performance.now() });
    }
  }
}
