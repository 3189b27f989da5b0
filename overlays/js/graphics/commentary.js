// 解说区: the show logo (top left) with the commentary-desk sponsor's logo slot under it.
import { h, text, flag, logo, image, changed, graphicRoot, onAir } from '../dom.js';

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
  slot.append(cap, sLogo, sName);
  root.append(showBox, slot);
  return {
    render(state, entry) {
      onAir(root, entry);
      const show = state.show || {};
      const sp = (state.sponsors && state.sponsors.commentary) || {};
      if (!changed(memo, 'all', [show.title, show.subtitle, show.logo, show.round, sp])) return;
      image(showLogo, show.logo, 'sponsors');
      flag(showBox, 'has-logo', !!show.logo);
      text(showTitle, show.title || '够级大明星');
      text(showSub, [show.subtitle, show.round].filter(Boolean).join(' · '));
      image(sLogo, sp.logo);
      text(sName, sp.name || '');
      flag(slot, 'empty', !sp.name && !sp.logo);
    },
  };
}
