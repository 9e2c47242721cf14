import type { Outcome } from './interpreter';
import type { NodeConfig, NodeType, WorkflowNode } from './nodes';

const number = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);

/** `condition` on rendered operands: numbers compare as numbers (both must be numeric), everything else as text. */
export const compare = ({ left, operator, right }: NodeConfig<'condition'>): boolean => {
  const [l, r] = [String(left), String(right ?? '')];
  const [ln, rn] = [number(left), number(right)];
  switch (operator) {
    case 'eq':
      return l === r;
    case 'neq':
      return l !== r;
    case 'contains':
      return l.includes(r);
    case 'exists':
      return l !== '';
    case 'gt':
      return ln > rn;
    case 'gte':
      return ln >= rn;
    case 'lt':
      return ln < rn;
    case 'lte':
      return ln <= rn;
  }
};

/** The nodes that touch nothing outside the execution; their outcome depends only on the rendered config. */
const PURE_NODES: Partial<Record<NodeType, (config: never) => Outcome>> = {
  condition: (c: NodeConfig<'condition'>) => ({ ok: true, output: { result: compare(c) } }),
  set_variable: (c: NodeConfig<'set_variable'>) => ({ ok: true, output: { name: c.name, value: c.value } }),
  wait: (c: NodeConfig<'wait'>) => ({ ok: true, output: { seconds: c.seconds } }),
  fail: (c: NodeConfig<'fail'>) => ({ ok: false, message: c.message }),
};

export const runPure = (node: WorkflowNode, rendered: unknown): Outcome | undefined =>
  (PURE_NODES[node.type] as ((c: unknown) => Outcome) | undefined)?.(rendered);
