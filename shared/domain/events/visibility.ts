import { grants, type Scope } from '../auth/scopes';

/**
 * Which event categories a token's scopes let it read, given each category's read scope: the token sees an
 * event of a category only when it holds that scope (`admin:all` holds every one).
 */
export const visibleCategories = (held: readonly string[], categoryScopes: Readonly<Record<string, Scope>>): string[] =>
  Object.entries(categoryScopes)
    .filter(([, scope]) => grants(held, scope))
    .map(([category]) => category);

/**
 * The event types a listing or a socket passes: each requested pattern (`*`, `inbox.*`, an exact name)
 * narrowed to the visible categories, as exact names and type prefixes. Both empty when nothing requested is
 * visible.
 */
export const typeFilters = (patterns: readonly string[], visible: readonly string[]): { exact: string[]; prefixes: string[] } => {
  const exact = new Set<string>();
  const prefixes = new Set<string>();
  for (const pattern of patterns) {
    if (pattern === '*') {
      for (const c of visible) prefixes.add(`${c}.`);
      continue;
    }
    const category = pattern.split('.')[0]!;
    if (!visible.includes(category)) continue;
    if (pattern.endsWith('.*')) prefixes.add(pattern.slice(0, -1));
    else exact.add(pattern);
  }
  // A prefix already covers the exact names and longer prefixes under it.
  const covered = (t: string) => [...prefixes].some((p) => t !== p && t.startsWith(p));
  return { exact: [...exact].filter((t) => !covered(t)), prefixes: [...prefixes].filter((p) => !covered(p)) };
};
