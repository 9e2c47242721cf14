import type { z } from 'zod';
import type { FieldError } from '../domain/errors';

export const formatPath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)), '');

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((v, seg) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[seg] : undefined), input);

/**
 * One entry per failing field. `missing` tells whether any required field was absent (400) rather than
 * present but invalid (422).
 */
export const fieldErrors = (error: z.ZodError, input: unknown): { missing: boolean; errors: FieldError[] } => {
  const byPath = new Map<string, string>();
  let missing = false;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) byPath.set(formatPath([...issue.path, key]), 'Unknown field');
      continue;
    }
    const absent = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
    missing ||= absent;
    const path = formatPath(issue.path);
    // A record key's own message ("Keys are …") says more than zod's "Invalid key in record".
    const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    if (!byPath.has(path)) byPath.set(path, absent ? 'Required' : message);
  }
  return { missing, errors: [...byPath].map(([path, message]) => ({ path, message })) };
};
