// Boots an on-air page: mounts the graphics named in <body data-graphics="…"> into the title-safe
// stage and renders every state the server sends. Pages decide nothing: each graphic is shown when
// state.graphics[bus][graphic].on is true and shows only what the state holds; its texts are fitted to
// their boxes by one shared rule (fit.js) once every graphic has rendered the frame, and broken onto
// another line only between terms (terms.js). A page opened at another size than its 1920×1080 canvas (an
// OBS browser source of 1280×720 on a 720p canvas, a monitor) shows the whole canvas scaled to fit,
// centred: the same picture smaller, never a cut-off part of it.
import { Feed, pageParams } from './client.js';
import { fitPending, setCanvasScale, setTerms } from './fit.js';
import { stateTerms } from './terms.js';
import * as scoreboard from './graphics/scoreboard.js';
import * as leaderboard from './graphics/leaderboard.js';
import * as qualifiers from './graphics/qualifiers.js';
import * as jiugongge from './graphics/jiugongge.js';
import * as corner_bug from './graphics/corner_bug.js';
import * as bumper from './graphics/bumper.js';
import * as ticker from './graphics/ticker.js';
import * as credits from './graphics/credits.js';
import * as commentary from './graphics/commentary.js';
import * as lower_third from './graphics/lower_third.js';
import * as jipaiqi from './graphics/jipaiqi.js';
import * as winprob from './graphics/winprob.js';

// stacking order, bottom to top
const MODULES = { commentary, jipaiqi, winprob, scoreboard, lower_third, ticker, corner_bug, leaderboard, qualifiers,
  jiugongge, bumper, credits };

/** The whole 1920×1080 canvas in the window, whatever the window's size (see above). */
function fitCanvas() {
  const root = getComputedStyle(document.documentElement);
  const cw = parseFloat(root.getPropertyValue('--canvas-width')) || 1920;
  const ch = parseFloat(root.getPropertyValue('--canvas-height')) || 1080;
  const w = window.innerWidth;
  const h = window.innerHeight;
  const s = Math.min(w / cw, h / ch);
  const body = document.body.style;
  if (!(s > 0) || Math.abs(s - 1) < 0.001) {
    body.transform = '';
    setCanvasScale(1);
    return;
  }
  body.transformOrigin = '0 0';
  body.transform = `translate(${(w - cw * s) / 2}px, ${(h - ch * s) / 2}px) scale(${s})`;
  setCanvasScale(s);
}
fitCanvas();
window.addEventListener('resize', fitCanvas);

const params = pageParams();
const wanted = (document.body.dataset.graphics || 'all').trim();
const ids = wanted === 'all' ? Object.keys(MODULES) : wanted.split(/\s+/).filter((id) => id in MODULES);
const stage = document.getElementById('stage');
document.documentElement.dataset.bus = params.bus;
const mounted = ids.map((id) => ({ id, g: MODULES[id].mount(stage) }));
const OFF = { on: false, item: '' };
// the zones table's full-frame layer (overlays/tokens.json). Where one comes in and others leave in the
// same change (a full-frame item replacing another, covering the scoreboard, or ending and giving back
// what it held), those leaving go at once and those coming in have their own way in: never two graphics
// mixed, drawn over each other for a moment
const FULL = new Set(['bumper', 'jiugongge', 'leaderboard', 'qualifiers', 'credits']);
const wasOn = new Map();

new Feed({
  ...params,
  onFrame(state) {
    // CUT and panic go to air at once; TAKE with each graphic's own animation
    const cut = !!state.graphics && state.graphics.transition === 'cut';
    document.documentElement.dataset.transition = cut ? 'cut' : 'mix';
    const bus = (state.graphics && state.graphics[params.bus]) || {};
    setTerms(stateTerms(state)); // the names: each one term, never broken onto two lines (terms.js)
    const on = (id) => !!(bus[id] || OFF).on;
    const coming = mounted.filter(({ id }) => on(id) && !wasOn.get(id)).map(({ id }) => id);
    const leaving = mounted.filter(({ id }) => !on(id) && wasOn.get(id)).map(({ id }) => id);
    const cutOut = coming.length > 0 && [...coming, ...leaving].some((id) => FULL.has(id));
    for (const { id, g } of mounted) {
      const el = stage.querySelector(`[data-graphic="${id}"]`);
      if (el) el.classList.toggle('replaced', cutOut && leaving.includes(id));
      g.render(state, bus[id] || OFF);
      wasOn.set(id, on(id));
    }
    fitPending(); // every text set in this frame, measured together (overlays/js/fit.js)
  },
});
