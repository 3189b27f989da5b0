// 5 s bumpers: 《够级大明星》栏目由"XX"独家冠名播出, 由"XX"独家特约播出, 由"XX"赞助播出.
// graphics[bus].bumper.item names the line (sponsors.bumpers[].id); empty means the first line.
import { h, flag, logo, image, changed, graphicRoot, onAir } from '../dom.js';
import { fitText } from '../fit.js';

export function mount(parent) {
  const root = graphicRoot(parent, 'bumper');
  const memo = {};
  const plate = h('div', 'bp-plate');
  const lg = logo('bp-logo');
  const line = h('div', 'bp-text');
  plate.append(lg, line);
  root.append(plate);
  return {
    render(state, entry) {
      const list = (state.sponsors && state.sponsors.bumpers) || [];
      const item = (entry && entry.item) || '';
      const b = (item ? list.find((x) => x.id === item) : list[0]) || null;
      onAir(root, entry && entry.on && b ? entry : { on: false });
      // while it fades out the line stays what it was
      if (!(entry && entry.on) || !changed(memo, 'all', b)) return;
      fitText(line, b ? b.text : '', { role: 'sponsor', lines: 2 }); // the paid sentence
      image(lg, b ? b.logo : '');
      flag(root, 'no-logo', !b || !b.logo);
      root.dataset.item = b ? b.id : '';
    },
  };
}
