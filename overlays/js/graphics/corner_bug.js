// 角标: the 独家特约 sponsor's corner bug, top right, for the whole broadcast.
import { h, flag, logo, image, changed, graphicRoot, onAir } from '../dom.js';
import { fitText } from '../fit.js';

export function mount(parent) {
  const root = graphicRoot(parent, 'corner_bug');
  const memo = {};
  const lg = logo('cb-logo');
  const box = h('div', 'cb-text');
  const cap = h('div', 'cb-cap', '独家特约');
  const name = h('div', 'cb-name');
  box.append(cap, name);
  root.append(lg, box);
  return {
    render(state, entry) {
      onAir(root, entry);
      const sp = (state.sponsors && state.sponsors.special) || {};
      if (!changed(memo, 'all', sp)) return;
      image(lg, sp.logo);
      fitText(name, sp.name || '', { role: 'sponsor' });
      flag(root, 'empty', !sp.name && !sp.logo);
    },
  };
}
