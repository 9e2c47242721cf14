import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { loadRoutes, type LoadedRoute } from '../support/routes';

/**
 * Answers of one kind have one shape, for every route of the wiring (docs/guide/conventions.md):
 * - every DELETE answers `{<name>: <the resource>, deleted: true}` and nothing else, `<name>` being the name the
 *   GET of the same path answers under (or, with no such GET, the singular of the path's last collection);
 * - every action (a `POST …/{id}/<verb>` that answers 200 and is no collection) answers `{<name>}`, the resource it
 *   changed under the name the GET of `…/{id}` answers it.
 */
const routes = await loadRoutes();
/** A provider's callback under a channel is no action on the channel: it answers what it received (`inbound`). */
const RECEIPTS = new Set(['POST /api/v1/channels/{id}/inbound']);
const byKey = new Map(routes.map((r) => [r.key, r]));

const keysOf = (r: LoadedRoute): string[] => {
  const response = r.spec.response;
  return response instanceof z.ZodObject ? Object.keys(response.shape) : [];
};
const singular = (segment: string) =>
  segment.endsWith('ies') ? `${segment.slice(0, -3)}y` : segment.endsWith('s') ? segment.slice(0, -1) : segment;
/** The name the GET of `path` answers its resource under, if there is such a GET with one. */
const getName = (path: string): string | undefined => {
  const get = byKey.get(`GET ${path}`);
  const keys = get ? keysOf(get) : [];
  return keys.length === 1 ? keys[0] : undefined;
};
const lastCollection = (path: string) =>
  singular(
    path
      .split('/')
      .filter((s) => !s.startsWith('{'))
      .at(-1)!,
  );

const deletes = routes.filter((r) => r.route.method === 'DELETE');
const actions = routes.filter((r) => {
  const match = /^(.*\/\{\w+\})\/[a-z-]+$/.exec(r.route.path);
  return r.route.method === 'POST' && match && (r.spec.status ?? 200) === 200 && !RECEIPTS.has(r.key) && !byKey.has(`GET ${r.route.path}`);
});

describe('one answer per kind', () => {
  it('finds the DELETE routes and the actions of the wiring', () => {
    expect(deletes.length).toBeGreaterThan(10);
    expect(actions.length).toBeGreaterThan(10);
  });

  it.each(deletes.map((r) => [r.key, r] as const))('%s answers {<resource>, deleted: true}', (_, r) => {
    const name = getName(r.route.path) ?? lastCollection(r.route.path);
    expect(keysOf(r)).toEqual([name, 'deleted']);
    const deleted = (r.spec.response as z.ZodObject).shape.deleted;
    expect(deleted?.safeParse(true).success && !deleted.safeParse(false).success).toBe(true);
  });

  it.each(actions.map((r) => [r.key, r] as const))('%s answers the resource it changed', (_, r) => {
    const resource = r.route.path.replace(/\/[a-z-]+$/, '');
    expect(keysOf(r)).toEqual([getName(resource)]);
  });
});
