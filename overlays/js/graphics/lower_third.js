// 字幕条 lower third for a player: name, second line, optional photo.
import { h, text, flag, logo, image, changed, graphicRoot, onAir } from '../dom.js';

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
      text(name, lt.name || '');
      text(line2, lt.line2 || '');
      image(photo, lt.photo, 'photos');
      flag(root, 'has-photo', !!lt.photo);
      flag(line2, 'empty', !lt.line2);
    },
  };
}
