/** API Gateway-style path templates: `{name}` matches one segment; more literal segments win. */
export interface Template {
  method: string;
  path: string;
}

const segments = (path: string) => path.split('/').filter(Boolean);

/** Templates are few and matched on every request: each is split once. */
const templateSegments = new Map<string, string[]>();
const segmentsOf = (template: string): string[] => {
  const found = templateSegments.get(template) ?? segments(template);
  templateSegments.set(template, found);
  return found;
};

const matchSegments = (template: string, p: string[]): Record<string, string> | undefined => {
  const t = segmentsOf(template);
  if (t.length !== p.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, seg] of t.entries()) {
    const actual = p[i]!;
    if (seg.startsWith('{') && seg.endsWith('}')) {
      try {
        params[seg.slice(1, -1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (seg !== actual) return undefined;
  }
  return params;
};

export const matchPath = (template: string, path: string) => matchSegments(template, segments(path));

const literalCount = (template: string) => segmentsOf(template).filter((s) => !s.startsWith('{')).length;

/** The best route for a method and path, plus every method the path supports (for 405-as-404 details). */
export const resolve = <T extends Template>(routes: readonly T[], method: string, path: string) => {
  const requested = segments(path);
  const candidates = routes
    .map((r) => ({ route: r, params: matchSegments(r.path, requested) }))
    .filter((c): c is { route: T; params: Record<string, string> } => c.params !== undefined)
    .sort((a, b) => literalCount(b.route.path) - literalCount(a.route.path));
  const best = candidates.find((c) => c.route.method === method.toUpperCase());
  const bestPath = best?.route.path ?? candidates[0]?.route.path;
  const allowedMethods = [...new Set(candidates.filter((c) => c.route.path === bestPath).map((c) => c.route.method))];
  return { match: best, allowedMethods };
};
