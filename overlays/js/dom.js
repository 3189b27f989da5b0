// DOM helpers for the on-air pages. On-air text is always inserted with textContent: never as HTML.

/** Create an element with a class and (text) content. */
export function h(tag, cls = '', text = null) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== null && text !== undefined) e.textContent = String(text);
  return e;
}

/** Set an element's text if it differs (no DOM write when nothing changed). */
export function text(el, value) {
  const v = value === null || value === undefined ? '' : String(value);
  if (el.textContent !== v) el.textContent = v;
}

/** Add or remove a class. */
export function flag(el, cls, on) {
  if (el.classList.contains(cls) !== !!on) el.classList.toggle(cls, !!on);
}

/** Set a data-attribute only when it changes. */
export function data(el, key, value) {
  const v = String(value);
  if (el.dataset[key] !== v) el.dataset[key] = v;
}

/**
 * The URL of an asset named in the state. A bare relative path ("xdj/logo.png") lives under
 * /assets/<root>/; "/assets/…" and "/overlay/…" are taken as they are. Anything else (schemes, "..",
 * protocol-relative) yields '' and the image is not shown.
 */
export function assetUrl(path, root = 'sponsors') {
  if (!path) return '';
  const p = String(path);
  if (/^[a-z][a-z0-9+.-]*:/i.test(p) || p.startsWith('//') || p.includes('\\')) return '';
  const absolute = p.startsWith('/');
  const segs = p.replace(/^\/+/, '').split('/');
  if (segs.some((s) => s === '' || s === '.' || s === '..')) return '';
  const enc = segs.map(encodeURIComponent).join('/');
  if (absolute) {
    return (p.startsWith('/assets/') || p.startsWith('/overlay/')) ? '/' + enc : '';
  }
  return `/assets/${encodeURIComponent(root)}/${enc}`;
}

/** Point an <img> at an asset (hidden when there is none or it fails to load). */
export function image(img, path, root = 'sponsors') {
  const url = assetUrl(path, root);
  if (img.dataset.src === url) return;
  img.dataset.src = url;
  if (url) {
    img.classList.remove('missing');
    img.src = url;
  } else {
    img.removeAttribute('src');
    img.classList.add('missing');
  }
}

/** A logo <img> that hides itself when the file is missing. */
export function logo(cls = 'logo') {
  const img = h('img', cls);
  img.alt = '';
  img.decoding = 'async';
  img.classList.add('missing');
  img.addEventListener('error', () => img.classList.add('missing'));
  img.addEventListener('load', () => img.classList.remove('missing'));
  return img;
}

/** A CSS colour from the state, only if it is a plain hex colour. */
export function color(value, fallback) {
  return typeof value === 'string' && /^#[0-9a-f]{3,8}$/i.test(value) ? value : fallback;
}

/** Card notation (G2.4) as on-air text: T→10, B→小王, R→大王. */
export const RANK_ZH = { T: '10', B: '小王', R: '大王' };
export function cardText(c) {
  return RANK_ZH[c] || c;
}

/** Memoise a renderer: call fn(...) only when key() differs from last time. */
export function changed(memo, name, value) {
  const k = JSON.stringify(value);
  if (memo[name] === k) return false;
  memo[name] = k;
  return true;
}

/** The base element of a graphic: <section class="g NAME" data-graphic="NAME">. */
export function graphicRoot(parent, name) {
  const root = h('section', `g ${name.replace('_', '-')}`);
  root.dataset.graphic = name;
  parent.appendChild(root);
  return root;
}

/** Show/hide a graphic from its bus entry {on, item}. */
export function onAir(root, entry) {
  flag(root, 'on', !!(entry && entry.on));
}
