// 解说区: the show logo (top left) with the commentary-desk sponsor's logo slot under it.
import { h, flag, logo, image, changed, graphicRoot, onAir } from '../dom.js';
import { fitText } from '../fit.js';

export function mount(parent) {
  const root = graphicRoot(parent, 'commentary');
  const memo = {};
  const showBox = h('div', 'cm-show');
  const showLogo = logo('cm-show-logo');
  const showTitle = h('div', 'cm-title');
  const showSub = h('div', 'cm-sub');
  showBox.append(showLogo, showTitle, showSub);
  const slot = h('div', 'cm-slot');
  const cap = h('div', 'cm-cap', '解说区');
  const sLogo = logo('cm-logo');
  const sName = h('div', 'cm-name');
  const sText = h('div', 'cm-text');
  sText.append(cap, sName);
  slot.append(sLogo, sText);
  root.append(showBox, slot);
  return {
    render(state, entry) {
      onAir(root, entry);
      const show = state.show || {};
      const sp = (state.sponsors && state.sponsors.commentary) || {};
      if (!changed(memo, 'all', [show.title, show.subtitle, show.logo, show.round, sp])) return;
      image(showLogo, show.logo, 'sponsors');
      flag(showBox, 'has-logo', !!show.logo);
      fitText(showTitle, show.title || '够级大明星');
      fitText(showSub, [show.subtitle, show.round].filter(Boolean).join(' · '), { lines: 2 });
      image(sLogo, sp.logo);
      fitText(sName, sp.name || '', { role: 'sponsor' });
      flag(slot, 'empty', !sp.name && !sp.logo);
    },
  };
}
