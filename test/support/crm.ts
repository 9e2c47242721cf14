import { expect } from 'vitest';
import type { Client } from './api';
import { outboxEvents } from './outbox';

export const PIPELINES = '/api/v1/crm/pipelines';
export const LEADS = '/api/v1/crm/leads';
export const TASKS = '/api/v1/crm/tasks';
export const ACTIVITIES = '/api/v1/crm/activities';
export const CUSTOMERS = '/api/v1/contacts/customers';

export interface StageView {
  _id: string;
  name: string;
  kind: 'open' | 'won' | 'lost';
  probability: number;
  position: number;
}

/** Posts `body` to `path` and returns `data[key]`, failing the test on anything but 201. */
export const create = async (api: Client, path: string, body: unknown, key: string) => {
  const res = await api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data[key];
};

/** A pipeline with the default stages; `stage(name)` finds one of them. */
export const makePipeline = async (api: Client, body: Record<string, unknown> = {}) => {
  const pipeline = await create(api, PIPELINES, { name: 'Sales', ...body }, 'pipeline');
  const stage = (name: string): StageView => pipeline.stages.find((s: StageView) => s.name === name);
  return { pipeline, stage };
};

/** The events of one entity (by `data.<key>._id`), oldest first. */
export const eventsOf = async (workspaceId: string, key: string, id: string, type?: string) =>
  (await outboxEvents(workspaceId, type)).filter((e) => (e.data[key] as { _id: string } | undefined)?._id === id);
