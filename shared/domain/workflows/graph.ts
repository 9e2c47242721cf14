import { CONTAINER_BRANCHES, NODE_CONFIGS, type Branch, type Edge, type NodeType, type WorkflowNode } from './nodes';
import { stringsIn, templatePaths } from './template';

/** A broken rule: the path as segments (`['edges', 3, 'to']`), so the validation layer formats it like any other. */
export interface GraphProblem {
  path: (string | number)[];
  message: string;
}

/** A saved workflow's structure (docs/guide/workflows.md): one root, chains by `next`, containers owning sub-chains. */
export interface Graph {
  root: string;
  node(id: string): WorkflowNode;
  child(id: string, branch: Branch): string | undefined;
}

export const buildGraph = (nodes: readonly WorkflowNode[], edges: readonly Edge[]): Graph => {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const children = new Map(edges.map((e) => [`${e.from}:${e.branch}`, e.to]));
  const targets = new Set(edges.map((e) => e.to));
  return {
    root: nodes.find((n) => !targets.has(n.id))!.id,
    node: (id) => byId.get(id)!,
    child: (id, branch) => children.get(`${id}:${branch}`),
  };
};

interface RawNode {
  id: string;
  type: NodeType;
  config: Record<string, unknown>;
}

const edgeProblems = (nodes: readonly RawNode[], edges: readonly Edge[]): GraphProblem[] => {
  const errors: GraphProblem[] = [];
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const incoming = new Map<string, number>();
  const outgoing = new Set<string>();
  edges.forEach((e, j) => {
    const from = byId.get(e.from);
    if (!from) errors.push({ path: ['edges', j, 'from'], message: `Unknown node "${e.from}"` });
    if (!byId.has(e.to)) errors.push({ path: ['edges', j, 'to'], message: `Unknown node "${e.to}"` });
    const branches = from && CONTAINER_BRANCHES[from.type];
    if (from && e.branch !== 'next' && ![...(branches?.required ?? []), ...(branches?.optional ?? [])].includes(e.branch)) {
      errors.push({ path: ['edges', j, 'branch'], message: `A ${from.type} node has no "${e.branch}" branch` });
    } else if (outgoing.has(`${e.from}:${e.branch}`)) {
      errors.push({ path: ['edges', j, 'branch'], message: `Node "${e.from}" already has a "${e.branch}" edge` });
    }
    outgoing.add(`${e.from}:${e.branch}`);
    if (incoming.has(e.to)) errors.push({ path: ['edges', j, 'to'], message: `Node "${e.to}" already has an incoming edge` });
    else incoming.set(e.to, j);
  });
  nodes.forEach((n, i) => {
    for (const branch of CONTAINER_BRANCHES[n.type]?.required ?? []) {
      if (!outgoing.has(`${n.id}:${branch}`)) errors.push({ path: ['nodes', i], message: `A ${n.type} node needs a "${branch}" branch` });
    }
  });
  if (errors.length > 0) return errors;

  const roots = nodes.filter((n) => !incoming.has(n.id));
  if (roots.length !== 1) {
    return roots.length === 0
      ? [
          {
            path: ['edges'],
            message: 'Must leave exactly one root (a node no edge points to); every node has an incoming edge, so there is a cycle',
          },
        ]
      : roots.slice(1).map((r) => ({
          path: ['nodes', nodes.indexOf(r), 'id'],
          message: `Only one root is allowed, but neither "${roots[0]!.id}" nor "${r.id}" has an incoming edge`,
        }));
  }
  // With one parent per node, a node the root does not reach sits on a cycle (or hangs off one).
  const reached = new Set<string>();
  const pending = [roots[0]!.id];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    reached.add(id);
    for (const e of edges) if (e.from === id) pending.push(e.to);
  }
  return nodes
    .filter((n) => !reached.has(n.id))
    .map((n) => ({ path: ['edges', incoming.get(n.id)!, 'to'], message: `Edge to "${n.id}" forms a cycle` }));
};

/** Whether a node runs inside some catch branch, where `error.*` is in scope. */
const inCatchBody = (id: string, edges: readonly Edge[]): boolean => {
  const parent = new Map(edges.map((e) => [e.to, e]));
  const seen = new Set<string>();
  for (let e = parent.get(id); e && !seen.has(e.to); e = parent.get(e.from)) {
    if (e.branch === 'catch') return true;
    seen.add(e.to);
  }
  return false;
};

const configProblems = (nodes: readonly RawNode[], edges: readonly Edge[]): GraphProblem[] => {
  const ids = new Set(nodes.map((n) => n.id));
  return nodes.flatMap((n, i) => {
    const at = (path: readonly PropertyKey[]) => ['nodes', i, 'config', ...path.map((p) => (typeof p === 'number' ? p : String(p)))];
    const parsed = NODE_CONFIGS[n.type].safeParse(n.config);
    const schema = parsed.success
      ? []
      : parsed.error.issues.flatMap((issue) =>
          issue.code === 'unrecognized_keys'
            ? issue.keys.map((k) => ({ path: at([...issue.path, k]), message: 'Unknown field' }))
            : [{ path: at(issue.path), message: issue.message }],
        );
    const templates = stringsIn(n.config).flatMap(({ path, text }) => {
      const { paths, problem } = templatePaths(text);
      if (problem) return [{ path: at(path), message: problem }];
      const unknown = paths.find((p) => p.startsWith('nodes.') && !ids.has(p.split('.')[1]!));
      if (unknown) return [{ path: at(path), message: `Template "{{${unknown}}}" names an unknown node` }];
      if (paths.some((p) => p.startsWith('error.')) && !inCatchBody(n.id, edges)) {
        return [{ path: at(path), message: 'error.* is only in scope inside a catch branch' }];
      }
      return [];
    });
    return [...schema, ...templates];
  });
};

/** Every rule of a saved graph broken, as field errors naming `nodes[i]…` and `edges[j]…`. */
export const graphProblems = (nodes: readonly RawNode[], edges: readonly Edge[]): GraphProblem[] => {
  const duplicates = nodes.flatMap((n, i) =>
    nodes.findIndex((m) => m.id === n.id) < i ? [{ path: ['nodes', i, 'id'], message: `Duplicate node id "${n.id}"` }] : [],
  );
  if (duplicates.length > 0) return duplicates;
  return [...edgeProblems(nodes, edges), ...configProblems(nodes, edges)];
};
