// 人名条 lower third for a player: name, second line, optional photo.
import { h, flag, logo, image, changed, graphicRoot, onAir } from '../dom.js';
import { fitText } from '../fit.js';

export function mount(parent) {
  const root = graphicRoot(parent, 'lower_third');
  const memo = {};
  const photo = logo('lt-photo');
  const box = h('div', 'lt-box');
  const name = h('div', 'lt-name');
  const line2 = h('div', 'lt-line2');
  box.append(name, line2);
  const bar = h('div', 'lt-bar');
  root.append(bar, photo, box);
  return {
    render(state, entry) {
      onAir(root, entry);
      const lt = state.lower_third || {};
      if (!changed(memo, 'all', lt)) return;
      image(photo, lt.photo, 'photos');
      flag(root, 'has-photo', !!lt.photo); // the photo narrows the box: set before the texts are fitted
      fitText(name, lt.name || '');
      fitText(line2, lt.line2 || '');
      flag(line2, 'empty', !lt.line2);
    },
  };
}
