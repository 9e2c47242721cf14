import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiText } from '../../../infra/docs/document';

const committed = resolve(import.meta.dirname, '..', '..', '..', 'openapi.json');

describe('the committed OpenAPI document', () => {
  it('is what the routes generate today (`npm run openapi` rewrites it)', async () => {
    const generated = await openApiText();
    // Compared as text, so a reordering counts as a change too; the message stays short on a mismatch.
    expect(readFileSync(committed, 'utf8') === generated, 'openapi.json is stale: run `npm run openapi` and commit it').toBe(true);
  });

  it('names its resource views once, in components/schemas, and refers to them', () => {
    const document = JSON.parse(readFileSync(committed, 'utf8')) as { components: { schemas: Record<string, unknown> } };
    for (const view of [
      'Conversation',
      'Message',
      'Customer',
      'Lead',
      'Pipeline',
      'Stage',
      'Task',
      'Activity',
      'Tag',
      'Member',
      'Workspace',
      'ApiToken',
    ]) {
      expect(document.components.schemas[view], view).toBeDefined();
    }
    expect(readFileSync(committed, 'utf8')).toContain('"$ref": "#/components/schemas/Conversation"');
  });
});
