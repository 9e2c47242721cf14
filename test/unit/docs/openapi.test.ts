import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../infra/docs/document';
import { resolvedResponse } from '../../../infra/docs/components';
import { pipelineErrors } from '../../../infra/docs/openapi';
import { tagOf } from '../../../infra/docs/tags';
import { wiring } from '../../../functions/wiring';
import { rateCategory } from '../../../shared/domain/auth/rate-limit';
import { eventCatalog, pingEvent } from '../../../shared/events/catalog';
import { errorStatus } from '../../../shared/http/errors';
import { loadRoutes } from '../../support/routes';

const document = await openApiDocument();
const routes = await loadRoutes();
type Operation = {
  tags: string[];
  security: Record<string, string[]>[];
  'x-required-scope'?: string | null;
  'x-rate-limit-category'?: string;
  responses: Record<
    string,
    {
      headers?: Record<string, unknown>;
      content: { 'application/json': { schema: { $ref?: string; properties?: Record<string, unknown> } } };
    }
  >;
  requestBody?: unknown;
};
/** An operation as a reader sees it: its answers, shared through `components`, written out. */
const operationOf = (method: string, path: string) => {
  const op = (document.paths?.[path] as Record<string, Operation> | undefined)?.[method.toLowerCase()];
  return (
    op && {
      ...op,
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([status, r]) => [status, resolvedResponse(document, r) as Operation['responses'][string]]),
      ),
    }
  );
};
const schemaRef = (ref: string) =>
  document.components?.schemas?.[ref.split('/').pop()!] as { properties: { error: { properties: { code: { enum: string[] } } } } };

describe('the OpenAPI document', () => {
  it('describes every route of the wiring, and nothing else', () => {
    const described = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(described.sort()).toEqual(wiring.routes.map((r) => `${r.method} ${r.path}`).sort());
    expect(described.length).toBeGreaterThan(50);
  });

  for (const r of routes) {
    it(`${r.key} carries its handler's scope, its area tag, its rate-limit category and every error the pipeline can answer`, () => {
      const op = operationOf(r.route.method, r.route.path)!;
      expect(op.tags).toEqual([tagOf(r.route.handler.split('/')[2]!)]);
      if (r.route.public) {
        expect(op.security).toEqual([]);
        expect(op['x-required-scope']).toBeUndefined();
        return;
      }
      expect(op['x-required-scope']).toBe(r.scope);
      expect(op.security[0]!.bearerAuth).toEqual(r.scope ? [r.scope] : []);
      expect('workspaceId' in op.security[0]!).toBe(r.spec.workspace !== false);
      expect(op['x-rate-limit-category']).toBe(rateCategory(r.route.method, r.route.path));
      const success = op.responses[String(r.spec.status ?? 200)]!;
      if (r.spec.produces) expect(Object.keys(success.content)).toEqual([r.spec.produces]);
      else expect(Object.keys(success.content['application/json'].schema.properties ?? {})).toEqual(['success', 'data']);
      for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id'])
        expect(success.headers?.[name], name).toMatchObject({ required: true });
      // No token is known when one is refused: a 401 reports no rate-limit window.
      if (!r.spec.errors?.includes('UNAUTHORIZED')) expect(Object.keys(op.responses['401']!.headers ?? {})).toEqual(['X-Request-Id']);
      expect(op.responses['429']!.headers?.['Retry-After']).toMatchObject({ required: true });
      const documented = Object.entries(op.responses)
        .filter(([status]) => Number(status) >= 400)
        .flatMap(([, res]) => schemaRef(res.content['application/json'].schema.$ref!).properties.error.properties.code.enum);
      expect(documented.sort()).toEqual([...pipelineErrors({ route: r.route, scope: r.scope, spec: r.spec as never })].sort());
      expect(documented).toEqual(expect.arrayContaining(['UNAUTHORIZED', 'TOO_MANY_REQUESTS', 'INTERNAL_ERROR']));
      for (const code of documented) expect(op.responses[String(errorStatus[code as keyof typeof errorStatus])]).toBeDefined();
      expect(Boolean(op.requestBody)).toBe(Boolean(r.spec.body));
    });
  }

  it('shows a declared response schema under the success wrapper (token creation shows the secret field)', () => {
    const op = operationOf('POST', '/api/v1/auth/tokens')!;
    const data = op.responses['201']!.content['application/json'].schema.properties!.data as { properties: { token: { $ref: string } } };
    // The view is a named component, referred to from the operation.
    const token = document.components?.schemas?.[data.properties.token.$ref.split('/').pop()!] as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(token.properties)).toEqual(expect.arrayContaining(['_id', 'prefix', 'scopes', 'status', 'token']));
    expect(token.required).toContain('token');
  });

  it('states each error answer and each response header once, in components, and refers to them', () => {
    const components = document.components as {
      responses: Record<string, { headers?: Record<string, { $ref?: string }> }>;
      headers: Record<string, unknown>;
    };
    const ref = (value: unknown, kind: string) =>
      expect((value as { $ref?: string }).$ref, JSON.stringify(value).slice(0, 80)).toMatch(new RegExp(`^#/components/${kind}/[\\w.-]+$`));
    for (const item of Object.values(document.paths ?? {})) {
      for (const op of Object.values(item as Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (!status.startsWith('2')) ref(response, 'responses');
          else for (const header of Object.values(response.headers ?? {})) ref(header, 'headers');
        }
      }
    }
    for (const response of Object.values(components.responses))
      for (const header of Object.values(response.headers ?? {})) ref(header, 'headers');
    for (const r of [...Object.values(components.responses), ...Object.values(components.headers)]) expect(r).not.toHaveProperty('$ref');
  });

  it('lists every catalog event, and the ping, as a webhook with its data schema', () => {
    const webhooks = document.webhooks as Record<
      string,
      { post: { requestBody: { content: { 'application/json': { schema: { properties: Record<string, { enum?: string[] }> } } } } } }
    >;
    expect(Object.keys(webhooks).sort()).toEqual([...eventCatalog.map((e) => e.type), pingEvent.type].sort());
    const created = webhooks['inbox.conversation.created']!.post.requestBody.content['application/json'].schema.properties;
    expect(created.eventType).toMatchObject({ enum: ['inbox.conversation.created'] });
    expect(Object.keys(created.data as object)).toContain('properties');
  });

  it('is lint-clean under @redocly/cli (recommended rules)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const cli = resolve('node_modules/@redocly/cli/bin/cli.js');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, 'lint', file, '--config', 'infra/docs/redocly.yaml', '--format', 'json'],
      { maxBuffer: 64 << 20 },
    ).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);
});
