// What the pages share in how figures look: number format, class colours, chart axes in the current theme, and
// the explanation every figure carries (a tooltip on hover, the same text shown on keyboard focus).
const PALETTE = [
  '#3b6fd8',
  '#d9480f',
  '#862e9c',
  '#c2255c',
  '#0b7285',
  '#5c940d',
  '#a61e4d',
  '#e67700',
  '#364fc7',
  '#087f5b',
];

// One formatter for every page: toLocaleString would build a new one per call, thousands of times per table
const NUMBER = new Intl.NumberFormat('en');

/** A number in the pages' one format (1,234): every page's counts, volumes and sizes go through it */
export function number(n) {
  return NUMBER.format(Number(n));
}

/** A stable colour per class name; deliveries green */
export function classColour(label) {
  if (label === 'delivered') return '#2b8a3e';
  let hash = 0;
  for (const c of label) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

/** uPlot axis options in the colours of the theme in use (light or dark): CSS does not reach a canvas */
export function themedAxis() {
  const style = getComputedStyle(document.documentElement);
  const text = style.getPropertyValue('--text').trim() || '#1d2330';
  const grid = style.getPropertyValue('--line').trim() || '#e3e6eb';
  return { stroke: text, grid: { stroke: grid }, ticks: { stroke: grid } };
}

/**
 * Gives `node` its explanation: the tooltip (title) on hover, and, since a title never shows from the keyboard, the
 * same text in `data-why`, which the stylesheet shows while the node has focus. The node takes focus (tabindex).
 */
export function explainable(node, why) {
  node.classList.add('why');
  node.tabIndex = 0;
  node.title = why;
  node.dataset.why = why;
  return node;
}
