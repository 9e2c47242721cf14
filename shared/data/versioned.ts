import { updateItem, type Write } from './transact';

/**
 * Sets the fields that differ between `before` and `after` and bumps `version`, on condition that nobody
 * else bumped it since it was read. Fields in `skip` (e.g. tag ids, which other areas ADD and DELETE) are
 * never overwritten. `set` adds assignments (e.g. index attributes) and `remove` removes attributes.
 */
export const versionedUpdate = (
  key: { pk: string; sk: string },
  version: number,
  before: object,
  after: object,
  opts: { skip?: readonly string[]; set?: Record<string, unknown>; remove?: readonly string[] } = {},
): Write => {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const changed = Object.keys(a).filter((k) => !opts.skip?.includes(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  const sets = { ...Object.fromEntries(changed.map((k) => [k, a[k]])), ...opts.set };
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':version': version, ':one': 1 };
  const assignments = Object.entries(sets).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#s${i} = :s${i}`;
  });
  const removals = (opts.remove ?? []).map((k, i) => {
    names[`#r${i}`] = k;
    return `#r${i}`;
  });
  const expression = [
    `SET ${[...assignments, '#version = #version + :one'].join(', ')}`,
    removals.length ? `REMOVE ${removals.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return updateItem(key, expression, { names, values, condition: '#version = :version' });
};
