/** Whether a subscription's `events` entry (a catalog name, `*`, or a whole-segment prefix such as `inbox.*`) covers `eventType`. */
const matchesPattern = (pattern: string, eventType: string): boolean =>
  pattern === '*' || pattern === eventType || (pattern.endsWith('.*') && eventType.startsWith(pattern.slice(0, -1)));

export const matchesAny = (patterns: readonly string[], eventType: string): boolean => patterns.some((p) => matchesPattern(p, eventType));
