import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../infra/docs/document';
import { NODE_TYPES } from '../../../shared/domain/workflows/nodes';

const document = (await openApiDocument()) as unknown as {
  components: { schemas: Record<string, { properties: Record<string, NodeList> }> };
  paths: Record<
    string,
    Record<string, { requestBody?: { content: { 'application/json': { schema: { properties: Record<string, NodeList> } } } } }>
  >;
};
type NodeList = { items: { properties: { config: { description?: string } } } };

describe("the document's workflow node config", () => {
  const configs = {
    'the Workflow view': document.components.schemas.Workflow!.properties.nodes!,
    'POST /workflows': document.paths['/api/v1/workflows']!.post!.requestBody!.content['application/json'].schema.properties.nodes!,
    'PATCH /workflows/{id}':
      document.paths['/api/v1/workflows/{id}']!.patch!.requestBody!.content['application/json'].schema.properties.nodes!,
  };

  for (const [where, nodes] of Object.entries(configs)) {
    it(`in ${where} says a Retry node's maxAttempts counts retries, not tries, and lists every node type's fields`, () => {
      const description = nodes.items.properties.config.description ?? '';
      expect(description).toContain('maximum number of retries after the first try');
      expect(description).toContain('`maxAttempts: 2` makes up to 3 tries');
      for (const type of NODE_TYPES) expect(description).toContain(`\`${type}\`: `);
      expect(description).toMatch(/`retry`: maxAttempts, backoff, baseDelaySeconds, categories\?/);
    });
  }
});
