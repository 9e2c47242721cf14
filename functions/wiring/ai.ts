import { outboxPatternOf } from '../../shared/events/from-bus';
import { areaRoutes } from './route';
import type { AreaWiring } from './types';

const base = '/api/v1/ai';
const articles = `${base}/knowledge-base/articles`;
const route = areaRoutes('ai');
/** Searching builds a workspace's index in memory on a cold container: 5,000 articles need room and time (see the AI bench). */
const searching = { memoryMb: 1024, timeoutSeconds: 29 };

export const aiWiring = {
  routes: [
    route('POST', articles, 'create-article', 'Create a knowledge-base article'),
    route('GET', articles, 'list-articles', 'Articles newest first (without their body)'),
    route('GET', `${articles}/{id}`, 'get-article', 'One article with its body'),
    route('PATCH', `${articles}/{id}`, 'update-article', 'Change an article'),
    route('DELETE', `${articles}/{id}`, 'delete-article', 'Delete an article'),
    route('GET', `${base}/knowledge-base/search`, 'search', 'Ranked passages of published articles for a query', searching),
    // A POST: write access for its idempotency record (docs/guide/idempotency.md); the suggestion itself writes nothing.
    route(
      'POST',
      `${base}/suggest-reply`,
      'suggest-reply',
      "Passages and a reply for a conversation's latest incoming messages",
      searching,
    ),
    route('GET', `${base}/settings`, 'get-settings', 'The AI settings'),
    route('PATCH', `${base}/settings`, 'update-settings', 'Change the AI settings'),
  ],
  rules: [
    {
      name: 'kb-index',
      pattern: outboxPatternOf([{ prefix: 'ai.article.' }]),
      target: { handler: 'functions/events/kb-index.ts', access: { table: 'write' }, timeoutSeconds: 30 },
    },
    {
      name: 'ai-answer',
      pattern: outboxPatternOf(['inbox.message.received']),
      target: { handler: 'functions/events/ai-answer.ts', access: { table: 'write' }, ...searching },
    },
  ],
} satisfies AreaWiring;
