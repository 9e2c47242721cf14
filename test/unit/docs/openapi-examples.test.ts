import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../infra/docs/document';
import { eventEnvelope } from '../../../infra/docs/openapi';
import { eventCatalog, pingEvent } from '../../../shared/events/catalog';
import { exampleOf, examplesOf, exampleKeys, placeholders, schemaChecker } from '../../support/openapi-examples';
import { answerProblems } from '../../support/response-gate';
import { loadRoutes } from '../../support/routes';

const document = await openApiDocument();
const routes = await loadRoutes();
const examples = examplesOf(document);
const check = schemaChecker(document);

type Media = { schema?: object; example?: unknown; examples?: Record<string, { value?: unknown; $ref?: string }> };
type Operation = { requestBody?: { content: Record<string, Media> }; responses: Record<string, { content?: Record<string, Media> }> };
const operationOf = (method: string, path: string) => (document.paths![path] as Record<string, Operation>)[method.toLowerCase()]!;

describe('the examples of the OpenAPI document', () => {
  it('are every example the document holds, one per answer, body and event at least', () => {
    expect(exampleKeys(document)).toBe(examples.length);
    const bodies = routes.filter((r) => r.spec.body);
    const events = eventCatalog.length + 1;
    expect(examples.length).toBeGreaterThanOrEqual(routes.length + bodies.length + events);
  });

  for (const r of routes) {
    it(`${r.key}: its success answer has an example in each of its media types`, () => {
      const content = operationOf(r.route.method, r.route.path).responses[String(r.spec.status ?? 200)]!.content!;
      expect(Object.keys(content)).toEqual([r.spec.produces ?? 'application/json']);
      for (const media of Object.values(content)) expect(exampleOf(document, media)).toBeDefined();
    });
  }

  for (const example of examples) {
    it(`${example.where} is valid under its own schema, with no placeholder`, () => {
      expect(check(example.schema, example.value)).toEqual([]);
      expect(placeholders(example.value)).toEqual([]);
    });
  }

  for (const r of routes) {
    const op = operationOf(r.route.method, r.route.path);
    if (!r.spec.produces && !r.spec.public) {
      it(`${r.key}: its success example is what the handler's response schema accepts`, () => {
        const example = exampleOf(document, op.responses[String(r.spec.status ?? 200)]!.content!['application/json']!);
        expect(answerProblems(z.strictObject({ success: z.literal(true), data: r.spec.response as z.ZodType }), example)).toEqual([]);
      });
    }
    if (r.spec.body) {
      it(`${r.key}: its body example is what the handler's body schema accepts`, () => {
        expect(answerProblems(r.spec.body as z.ZodType, exampleOf(document, op.requestBody!.content['application/json']!))).toEqual([]);
      });
    }
  }

  for (const event of [...eventCatalog, pingEvent]) {
    it(`${event.type}: its payload example is the catalog's envelope and data`, () => {
      const example = exampleOf(
        document,
        (document.webhooks![event.type] as { post: Operation }).post.requestBody!.content['application/json']!,
      );
      expect(answerProblems(eventEnvelope(event), example)).toEqual([]);
    });
  }
});

describe('the example checks', () => {
  const [first] = examples.filter((e) => e.where.includes('/inbox/conversations.get.responses.200'));

  it('find a value outside its schema: a wrong enum, an ill-formed id and an undeclared field', () => {
    const wrong = structuredClone(first!.value) as { data: { conversations: Record<string, unknown>[] } };
    Object.assign(wrong.data.conversations[0]!, { status: 'archived', customerId: 'cus_1', mood: 'happy' });
    expect(check(first!.schema, first!.value)).toEqual([]);
    const problems = check(first!.schema, wrong);
    expect(problems.join('\n')).toMatch(/conversations\.0\.status/);
    expect(problems.join('\n')).toMatch(/conversations\.0\.customerId/);
    expect(problems.join('\n')).toMatch(/mood/);
  });

  it('find the placeholders a generator writes', () => {
    expect(placeholders({ details: { property1: null, property2: null }, name: 'string', note: 'a string' })).toEqual([
      '$.details.property1: placeholder key',
      '$.details.property2: placeholder key',
      '$.name: "string"',
    ]);
  });

  it('count an example they would not validate (one outside a media type)', () => {
    const extra = structuredClone(document) as unknown as {
      components: { schemas: Record<string, Record<string, unknown>>; examples?: Record<string, unknown> };
    };
    extra.components.schemas.Tag!.example = { name: 'string' };
    expect(exampleKeys(extra)).toBe(examples.length + 1);
    expect(examplesOf(extra)).toHaveLength(examples.length);
  });
});
