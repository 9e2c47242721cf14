import fc from 'fast-check';
import { jsonSchemaOf, toJsonText, validArb } from './json-arbitraries';
import type { LoadedRoute } from './routes';

/** Bodies whose rules span fields (a workflow's graph) or name fixed values (scopes) that random generation does not find. */
const EXAMPLES: Record<string, unknown> = {
  'POST /api/v1/auth/tokens': { name: 'example', scopes: ['tags:read'] },
  'POST /api/v1/workflows': {
    name: 'example',
    trigger: { type: 'manual' },
    nodes: [{ id: 'a', type: 'wait', config: { seconds: 0 } }],
    edges: [],
  },
};

/**
 * Where a body names the caller's ids, it is derived with stand-ins and they are swapped in after: what is
 * generated does not depend on the ids' values, so a route's body is derived once per file (about 50 ms of
 * sampling and parsing each), not once per call. A stand-in is an id of the right form no generator makes.
 */
const standIn = (i: number) => `ffffffffffffffffffff${i.toString(16).padStart(4, '0')}`;
const derived = new Map<string, string>();

/** A body the route's schema accepts (refinements included), naming the caller's own tag where it wants ids. */
export const validBody = (route: LoadedRoute, ownIds: string[]): unknown => {
  if (route.key in EXAMPLES) return EXAMPLES[route.key];
  const key = `${route.key} ${ownIds.length}`;
  let text = derived.get(key);
  if (text === undefined) {
    text = JSON.stringify(
      derive(
        route,
        ownIds.map((_, i) => standIn(i)),
      ),
    );
    derived.set(key, text);
  }
  return JSON.parse(ownIds.reduce((t, id, i) => t.replaceAll(standIn(i), id), text));
};

const derive = (route: LoadedRoute, ownIds: string[]): unknown => {
  const schema = route.spec.body!;
  const arb = validArb(jsonSchemaOf(schema), {
    ids: () => ownIds,
    hints: ['*', 'inbox.*', 'webhook.ping', 'https://127.0.0.1/hook', 'Renamed', 'note'],
  });
  for (const seed of [1, 2, 3, 4, 5]) {
    const found = fc
      .sample(arb, { seed, numRuns: 400 })
      .map((v) => JSON.parse(toJsonText(v)))
      .find((v) => schema.safeParse(v).success && !JSON.stringify(v).match(new RegExp(`"(?!(${ownIds.join('|')})")[0-9a-f]{24}"`)));
    if (found !== undefined) return found;
  }
  throw new Error(`no valid body derived for ${route.key}: add a hint for its refined fields`);
};
