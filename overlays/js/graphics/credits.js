// 片尾鸣谢: the end credits roll (names and logos of 冠名, 独家特约, 赞助播出, prize sponsors …).
import { h, flag, logo, image, changed, graphicRoot, onAir } from '../dom.js';
import { fitText } from '../fit.js';

function fitted(cls, value, opts) {
  const el = h('div', cls);
  fitText(el, value, opts);
  return el;
}

export function mount(parent) {
  const root = graphicRoot(parent, 'credits');
  const memo = {};
  const roll = h('div', 'cr-roll');
  root.append(roll);
  let wasOn = false;
  return {
    render(state, entry) {
      const on = !!(entry && entry.on);
      onAir(root, entry);
      const credits = (state.sponsors && state.sponsors.credits) || [];
      const show = state.show || {};
      if (changed(memo, 'all', [credits, show.title, show.channel, show.episode])) {
        const parts = [h('div', 'cr-heading', '片尾鸣谢')];
        let lastRole = null;
        for (const c of credits) {
          if (c.role && c.role !== lastRole) {
            parts.push(fitted('cr-role', c.role));
            lastRole = c.role;
          }
          const line = h('div', 'cr-line');
          const lg = logo('cr-logo');
          image(lg, c.logo);
          line.append(lg, fitted('cr-name', c.name, { role: 'sponsor' }));
          parts.push(line);
        }
        const end = h('div', 'cr-end');
        end.append(fitted('cr-show', `《${show.title || '够级大明星'}》`),
          fitted('cr-channel', [show.channel, show.episode].filter(Boolean).join(' ')));
        parts.push(end);
        roll.replaceChildren(...parts);
        const seconds = Math.max(12, 6 + credits.length * 2.2);
        root.style.setProperty('--cr-duration', `${seconds.toFixed(1)}s`);
      }
      // the roll starts when the graphic goes on air (and again each time it is taken), in the frame that
      // draws it: the class taken off, a style flush, the class put back (not a frame later, when a
      // settled page or a proof picture could catch the roll not yet started, below the screen)
      if (on && !wasOn) {
        roll.classList.remove('run');
        void roll.offsetHeight;
        roll.classList.add('run');
      }
      flag(root, 'still', entry && entry.item === 'still');
      wasOn = on;
    },
  };
}
