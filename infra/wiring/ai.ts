import { outboxPatternOf } from '../../shared/events/from-bus';
import type { EventRule, HttpRoute } from './types';

const base = '/api/v1/ai';
const articles = `${base}/knowledge-base/articles`;
const fn = (name: string) => `functions/http/ai/${name}.ts`;
const read = { table: 'read' } as const;
const write = { table: 'write' } as const;
/** Searching builds a workspace's index in memory on a cold container: 5,000 articles need room and time (see the AI bench). */
const searching = { memoryMb: 1024, timeoutSeconds: 29 };

const routes: HttpRoute[] = [
  { method: 'POST', path: articles, handler: fn('create-article'), access: write, summary: 'Create a knowledge-base article' },
  { method: 'GET', path: articles, handler: fn('list-articles'), access: read, summary: 'Articles newest first (without their body)' },
  { method: 'GET', path: `${articles}/{id}`, handler: fn('get-article'), access: read, summary: 'One article with its body' },
  { method: 'PATCH', path: `${articles}/{id}`, handler: fn('update-article'), access: write, summary: 'Change an article' },
  { method: 'DELETE', path: `${articles}/{id}`, handler: fn('delete-article'), access: write, summary: 'Delete an article' },
  { method: 'GET', path: `${base}/knowledge-base/search`, handler: fn('search'), access: read, ...searching, summary: 'Ranked passages of published articles for a query' },
  // A POST: write access for its idempotency record (docs/guide/idempotency.md); the suggestion itself writes nothing.
  { method: 'POST', path: `${base}/suggest-reply`, handler: fn('suggest-reply'), access: write, ...searching, summary: "Passages and a reply for a conversation's latest incoming messages" },
  { method: 'GET', path: `${base}/settings`, handler: fn('get-settings'), access: read, summary: 'The AI settings' },
  { method: 'PATCH', path: `${base}/settings`, handler: fn('update-settings'), access: write, summary: 'Change the AI settings' },
];

const rules: EventRule[] = [
  {
    name: 'kb-index',
    pattern: outboxPatternOf([{ prefix: 'ai.article.' }]),
    target: { handler: 'functions/events/kb-index.ts', access: write, timeoutSeconds: 30 },
  },
  {
    name: 'ai-answer',
    pattern: outboxPatternOf(['inbox.message.received']),
    target: { handler: 'functions/events/ai-answer.ts', access: write, ...searching },
  },
];

export const aiWiring = { routes, rules };
