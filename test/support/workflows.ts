import type { Client } from './api';
import { eventually } from './webhooks';

/** Builders for hand-written workflow graphs, as users write them (docs/guide/workflows.md). */
export const node = (id: string, type: string, config: object = {}) => ({ id, type, config });
export const edge = (from: string, to: string, branch = 'next') => ({ from, to, branch });
export const call = (id: string, url: string, extra: object = {}) => node(id, 'http_request', { method: 'POST', url, ...extra });

export const createWorkflow = async (api: Client, body: object) => {
  const res = await api.post('/api/v1/workflows', { name: 'test workflow', trigger: { type: 'manual' }, ...body });
  if (res.status !== 201) throw new Error(`creating the workflow failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.workflow as { _id: string; version: number };
};

export const trigger = async (api: Client, workflowId: string, payload?: object) => {
  const res = await api.post(`/api/v1/workflows/${workflowId}/trigger`, payload ? { payload } : {});
  if (res.status !== 202) throw new Error(`triggering failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.execution as { _id: string; status: string };
};

const FINISHED = ['completed', 'completed_with_errors', 'failed', 'cancelled'];

/**
 * Polls the execution until it has finished; returns it with its steps. At most 200 reads per wait, so a long
 * one (a crash test waiting out a visibility timeout) stays inside the token's 300 reads per window.
 */
export const finished = (api: Client, executionId: string, timeoutMs = 60_000) =>
  eventually(
    async () => {
      const res = await api.get(`/api/v1/workflows/executions/${executionId}`);
      return FINISHED.includes(res.body?.data?.execution?.status) && (res.body.data.execution as Record<string, any>);
    },
    timeoutMs,
    Math.max(250, Math.ceil(timeoutMs / 200)),
  );
