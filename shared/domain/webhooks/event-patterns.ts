import { eventTypes } from '../../events/catalog';

/**
 * A subscription's `events` entries: an exact catalog name, `*`, or a prefix wildcard on whole segments
 * such as `inbox.*` or `inbox.conversation.*` that names at least one catalog event.
 */
export const isValidPattern = (pattern: string): boolean => {
  if (pattern === '*') return true;
  if (!pattern.endsWith('.*')) return eventTypes.has(pattern);
  const prefix = pattern.slice(0, -1);
  return [...eventTypes].some((t) => t.startsWith(prefix));
};

export const matchesPattern = (pattern: string, eventType: string): boolean =>
  pattern === '*' || pattern === eventType || (pattern.endsWith('.*') && eventType.startsWith(pattern.slice(0, -1)));

export const matchesAny = (patterns: readonly string[], eventType: string): boolean =>
  patterns.some((p) => matchesPattern(p, eventType));
