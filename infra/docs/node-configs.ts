import type * as z from 'zod';
import { NODE_CONFIGS, NODE_TYPES } from '../../shared/domain/workflows/nodes';

/**
 * A workflow node's `config` is checked against its type's schema when the workflow is saved, so the
 * document shows it as an object; this says, on every node the document describes, which fields each type
 * takes and how a Retry node counts.
 */

const fieldsOf = (schema: z.ZodType): string => {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(shape)
    .map(([name, field]) => (field.safeParse(undefined).success ? `${name}?` : name))
    .join(', ');
};

const RETRY_COUNT =
  '`maxAttempts` (1–10) is the maximum number of retries after the first try, not of tries: `maxAttempts: 2` makes up to 3 tries.';

const NODE_CONFIG_DESCRIPTION = [
  'The node’s settings, checked against its type’s fields when the workflow is saved (a wrong one answers 422 naming `nodes[i].config.<field>`). String values may hold `{{path}}` templates.',
  ...NODE_TYPES.map((type) => `- \`${type}\`: ${fieldsOf(NODE_CONFIGS[type]) || 'no fields'}`),
  `For \`retry\`, ${RETRY_COUNT}`,
].join('\n');

type Schema = { properties?: Record<string, Schema & { enum?: unknown[]; description?: string }> };

/** Describes the `config` of every workflow node schema in `document` (an object with a node `type` and a `config`). */
export const describeNodeConfigs = <D extends object>(document: D): D => {
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    const { properties } = node as Schema;
    if (properties?.config && properties.type?.enum?.includes('retry')) properties.config.description = NODE_CONFIG_DESCRIPTION;
    Object.values(node).forEach(walk);
  };
  walk(document);
  return document;
};
