import type { z } from 'zod';
import type { FieldError } from '../domain/errors';

const formatPath = (path: readonly PropertyKey[]): string =>
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

const ILL_FORMED = 'Must be valid Unicode text (no unpaired surrogate)';

/**
 * Every key and string holding an unpaired UTF-16 surrogate, as field errors. JSON lets `\ud800` through,
 * but DynamoDB stores UTF-8, which cannot hold it, so such text is refused on every route, not stored.
 * Walks with its own stack: a body may nest deeper than the call stack goes.
 */
export const illFormedText = (input: unknown): FieldError[] => {
  interface Node {
    value: unknown;
    key?: PropertyKey;
    parent?: Node;
  }
  const pathOf = (node: Node): PropertyKey[] => {
    const path: PropertyKey[] = [];
    for (let n: Node | undefined = node; n?.parent; n = n.parent) path.unshift(n.key!);
    return path;
  };
  const errors: FieldError[] = [];
  const pending: Node[] = [{ value: input }];
  for (let node = pending.pop(); node; node = pending.pop()) {
    const { value } = node;
    if (typeof value === 'string') {
      if (!value.isWellFormed()) errors.push({ path: formatPath(pathOf(node)), message: ILL_FORMED });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        const child = { value: inner, key: Array.isArray(value) ? Number(key) : key, parent: node };
        if (!key.isWellFormed()) errors.push({ path: formatPath(pathOf(child)), message: ILL_FORMED });
        pending.push(child);
      }
    }
  }
  return errors;
};
