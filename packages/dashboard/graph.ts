import type { Workflow } from './api';

const SVG = 'http://www.w3.org/2000/svg';
const W = 150;
const H = 46;
const GAP_X = 30;
const GAP_Y = 40;

const svg = <K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, ...children: (Node | string)[]) => {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
};

interface Placed {
  x: number;
  y: number;
}

/**
 * A tidy top-down tree (a definition has one root and at most one incoming edge per node): each node one row
 * below its parent, leaves left to right in edge order, a parent centred over its children.
 */
const layout = (def: Pick<Workflow, 'nodes' | 'edges'>): Map<string, Placed> => {
  const children = new Map<string, string[]>();
  for (const e of def.edges) children.set(e.from, [...(children.get(e.from) ?? []), e.to]);
  const targets = new Set(def.edges.map((e) => e.to));
  const placed = new Map<string, Placed>();
  let nextColumn = 0;
  const place = (id: string, depth: number): number => {
    const kids = children.get(id) ?? [];
    const columns = kids.map((k) => place(k, depth + 1));
    const column = columns.length ? (columns[0]! + columns.at(-1)!) / 2 : nextColumn++;
    placed.set(id, { x: column * (W + GAP_X), y: depth * (H + GAP_Y) });
    return column;
  };
  for (const n of def.nodes) if (!targets.has(n.id)) place(n.id, 0);
  return placed;
};

/**
 * The definition as a read-only picture: a box per node (its id and type, coloured by its last step's status
 * when `statuses` has one), an arrow per edge labelled with its branch unless it is `next`.
 */
export const graphPicture = (def: Pick<Workflow, 'nodes' | 'edges'>, statuses: Map<string, string> = new Map()): SVGSVGElement => {
  const at = layout(def);
  const width = Math.max(...[...at.values()].map((p) => p.x)) + W;
  const height = Math.max(...[...at.values()].map((p) => p.y)) + H;
  const arrow = svg(
    'marker',
    { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' },
    svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#6b7385' }),
  );
  const edges = def.edges.map((e) => {
    const a = at.get(e.from)!;
    const b = at.get(e.to)!;
    const [x1, y1, x2, y2] = [a.x + W / 2, a.y + H, b.x + W / 2, b.y];
    return svg(
      'g',
      { class: 'edge' },
      svg('path', {
        d: `M${x1},${y1} C${x1},${y1 + GAP_Y / 2} ${x2},${y2 - GAP_Y / 2} ${x2},${y2}`,
        fill: 'none',
        stroke: '#6b7385',
        'marker-end': 'url(#arrow)',
      }),
      e.branch === 'next' ? '' : svg('text', { x: (x1 + x2) / 2 + 4, y: (y1 + y2) / 2, class: 'branch' }, e.branch),
    );
  });
  const nodes = def.nodes.map((n) => {
    const p = at.get(n.id)!;
    const state = statuses.get(n.id) ?? 'not-run';
    return svg(
      'g',
      { class: `node node-${state}`, 'data-node': n.id, transform: `translate(${p.x},${p.y})` },
      svg('title', {}, `${n.id} (${n.type}): ${state}`),
      svg('rect', { width: W, height: H, rx: 6 }),
      svg('text', { x: 8, y: 19, class: 'node-id' }, n.name ?? n.id),
      svg('text', { x: 8, y: 36, class: 'node-type' }, n.type),
    );
  });
  return svg(
    'svg',
    { viewBox: `-2 -2 ${width + 4} ${height + 4}`, width: width + 4, role: 'img', 'aria-label': 'The workflow graph', class: 'graph' },
    svg('defs', {}, arrow),
    ...edges,
    ...nodes,
  );
};
