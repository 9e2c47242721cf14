import { describe, expect, it } from 'vitest';
import { expectError, type ApiResponse } from '../support/api';
import { makePipeline } from '../support/crm';
import { useTestStack } from '../support/stack';
import { createWorkflow, node } from '../support/workflows';

/** Free-form JSON through every route it enters by: one rule, answered 422 naming the place, never a 500 or a silent change. */
const env = useTestStack();
const WF = '/api/v1/workflows';

const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const paths = (res: ApiResponse) => res.body.error.details.errors.map((e: { path: string }) => e.path);

const refused = (res: ApiResponse, ...expected: string[]) => {
  expectError(res, 422, 'VALIDATION_ERROR');
  expect(paths(res)).toEqual(expected);
};

describe('free-form JSON', () => {
  it('refuses a trigger payload nested 5,000 and 10,000 deep with 422, not a 500 from a stack overflow', async () => {
    const { api } = await env.tenant();
    const workflow = await createWorkflow(api, { nodes: [node('a', 'set_variable', { name: 'x', value: 'y' })], edges: [] });
    for (const depth of [5_000, 10_000]) {
      const res = await api.post(`${WF}/${workflow._id}/trigger`, `{"payload":${deep(depth)}}`);
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details.errors[0].message).toMatch(/Nests at most \d+ levels deep/);
    }
    expect((await api.post(`${WF}/${workflow._id}/trigger`, `{"payload":${deep(16)}}`)).status).toBe(202);
    expect((await api.get(`${WF}/executions?workflowId=${workflow._id}`)).body.data.pagination.total).toBe(1);
  });

  it('refuses numbers that parsing or the storage would change (1e309, 2^53 + 1, -0, 1e-400, 20 digits), naming each', async () => {
    const { api } = await env.tenant();
    const workflow = await createWorkflow(api, { nodes: [node('a', 'set_variable', { name: 'x', value: 'y' })], edges: [] });
    const payload =
      '{"big":1e309,"over":9007199254740993,"zero":-0,"tiny":1e-400,"long":0.10000000000000000001,"ok":[1.5,1E+2,100,"9007199254740993"]}';
    refused(
      await api.post(`${WF}/${workflow._id}/trigger`, `{"payload":${payload}}`),
      'payload.big',
      'payload.over',
      'payload.zero',
      'payload.tiny',
      'payload.long',
    );
    expect((await api.get(`${WF}/executions?workflowId=${workflow._id}`)).body.data.pagination.total).toBe(0);
    const ok = await api.post(
      `${WF}/${workflow._id}/trigger`,
      '{"payload":{"ok":[1.5,1E+2,100,"9007199254740993"],"max":9007199254740991}}',
    );
    expect(ok.status).toBe(202);
    const stored = await api.get(`${WF}/executions/${ok.body.data.execution._id}`);
    expect(stored.body.data.execution.trigger.payload).toEqual({ ok: [1.5, 100, 100, '9007199254740993'], max: 9007199254740991 });
  });

  it('refuses prototype names as keys, at any depth, wherever keys are data', async () => {
    const { api } = await env.tenant();
    const workflow = await createWorkflow(api, { nodes: [node('a', 'set_variable', { name: 'x', value: 'y' })], edges: [] });
    refused(await api.post(`${WF}/${workflow._id}/trigger`, '{"payload":{"a":{"__proto__":{"x":1}}}}'), 'payload.a.__proto__');
    refused(await api.post(`${WF}/${workflow._id}/trigger`, '{"payload":{"constructor":1}}'), 'payload.constructor');
    const httpNode = (config: string) =>
      `{"name":"w","trigger":{"type":"manual"},"nodes":[{"id":"a","type":"http_request","config":${config}}],"edges":[]}`;
    refused(
      await api.post(WF, httpNode('{"method":"POST","url":"https://example.com/x","headers":{"__proto__":"x"}}')),
      'nodes[0].config.headers.__proto__',
    );
    refused(
      await api.post(WF, httpNode('{"method":"POST","url":"https://example.com/x","body":{"n":[1,9007199254740993]}}')),
      'nodes[0].config.body.n[1]',
    );
    refused(
      await api.post(WF, httpNode(`{"method":"POST","url":"https://example.com/x","body":${deep(20)}}`)),
      `nodes[0].config.body${'.a'.repeat(16)}`,
    );
    refused(
      await api.post(WF, httpNode('{"__proto__":{"x":1},"method":"POST","url":"https://example.com/x"}')),
      'nodes[0].config.__proto__',
    );
    refused(
      await api.post(
        WF,
        '{"name":"w","trigger":{"type":"event","eventTypes":["inbox.*"],"filter":{"__proto__":"x"}},"nodes":[{"id":"a","type":"fail","config":{"message":"m"}}],"edges":[]}',
      ),
      'trigger.filter.__proto__',
    );
    const { pipeline } = await makePipeline(api);
    refused(
      await api.post('/api/v1/crm/leads', `{"title":"L","pipelineId":"${pipeline._id}","attributes":{"n":9007199254740993}}`),
      'attributes.n',
    );
    refused(await api.post('/api/v1/contacts/customers', '{"name":"Ada","attributes":{"n":-0}}'), 'attributes.n');
  });

  it('refuses any body nested past 32 levels, and any number changed by parsing, on routes without free-form fields too', async () => {
    const { api } = await env.tenant();
    const res = await api.post('/api/v1/tags', `{"name":${deep(10_000)}}`);
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors[0].message).toMatch(/Nests at most 32 levels deep/);
    refused(
      await api.post('/api/v1/crm/pipelines', '{"name":"P","stages":[{"name":"a","kind":"open","probability":1e-400}]}'),
      'stages[0].probability',
    );
  });
});
