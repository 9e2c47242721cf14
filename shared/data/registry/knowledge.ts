import * as z from 'zod';
import { article as articleView, settings as settingsView, articleSummary as summaryView } from '../../views/ai';
import { declare } from './define';

export const article = /* @__PURE__ */ declare({
  name: 'Knowledge-base article',
  itemTypes: ['ARTICLE'],
  personal: [],
  about: 'An article (versioned).',
  prefixes: ['KBART', 'ARTICLE'],
  keys: { pk: 'WS#<tenant>#KBART#<id>', sk: 'ARTICLE' },
  patterns: [{ read: 'article by id', by: 'pk=<tenant>#KBART#<id> sk=ARTICLE' }],
  schema: () => articleView.extend({ version: z.number() }),
});

export const articleSummary = /* @__PURE__ */ declare({
  name: 'Knowledge-base article summary',
  itemTypes: ['ARTICLE_SUMMARY'],
  personal: [],
  about:
    'An article without its body, in the newest-first list: a page of 100 full articles could pass Query’s 1 MB page and the API’s payload limit.',
  prefixes: ['KBARTS'],
  keys: { pk: 'WS#<tenant>#KBARTS', sk: '<id>' },
  patterns: [{ read: 'articles, newest first', by: 'pk=<tenant>#KBARTS' }],
  schema: () => summaryView,
});

export const searchHead = /* @__PURE__ */ declare({
  name: 'Knowledge-base search head',
  itemTypes: [],
  personal: [],
  about:
    "A tenant's search index partition, written only by the index consumer from `ai.article.*` events: the head counts the changes applied so far (`seq`). It and a change's item are written in one transaction conditional on the head read, so change n exists exactly when the head is at least n.",
  prefixes: ['KBIDX', 'HEAD'],
  keys: { pk: 'WS#<tenant>#KBIDX', sk: 'HEAD' },
  patterns: [{ read: 'changes applied so far', by: 'pk=<tenant>#KBIDX sk=HEAD' }],
  schema: () => z.object({ seq: z.number().default(0) }),
});

export const searchDoc = /* @__PURE__ */ declare({
  name: 'Knowledge-base search document',
  itemTypes: ['KB_DOC'],
  personal: [],
  about:
    'What the index holds of a published article (absent when unpublished or deleted): a searching function builds its in-memory index from these once per warm container.',
  prefixes: ['DOC'],
  keys: { pk: 'WS#<tenant>#KBIDX', sk: 'DOC#<articleId>' },
  patterns: [{ read: 'indexed articles', by: 'pk=<tenant>#KBIDX sk begins_with DOC#' }],
  schema: () => z.object({ articleId: z.string(), ...articleView.pick({ title: true, body: true, tags: true, locale: true }).shape }),
});

export const searchChange = /* @__PURE__ */ declare({
  name: 'Knowledge-base search change',
  itemTypes: ['KB_CHANGE'],
  personal: [],
  about: 'Which article change number `seq` touched: a searching function applies those past its own `seq` before each search.',
  prefixes: ['CHG'],
  keys: { pk: 'WS#<tenant>#KBIDX', sk: 'CHG#<seq>' },
  patterns: [{ read: 'changes since a seq', by: 'pk=<tenant>#KBIDX sk between CHG#<from> and CHG#<to>' }],
  schema: () => z.object({ articleId: z.string() }),
});

export const aiSettings = /* @__PURE__ */ declare({
  name: 'AI settings',
  itemTypes: ['AI_SETTINGS'],
  personal: [],
  about: "The tenant's AI settings (versioned): what it saved, over the defaults; no item means the defaults.",
  prefixes: ['AI_SETTINGS'],
  keys: { pk: 'WS#<tenant>', sk: 'AI_SETTINGS' },
  patterns: [{ read: 'AI settings', by: 'pk=<tenant> sk=AI_SETTINGS' }],
  schema: () => z.object({ settings: settingsView.partial().default({}), version: z.number().default(0) }),
});

export const aiAnswer = /* @__PURE__ */ declare({
  name: 'AI answer guard',
  itemTypes: ['AI_ANSWER'],
  personal: [],
  about: "Created in an automatic answer's transaction, so a message is answered at most once.",
  prefixes: ['AIANSWER'],
  keys: { pk: 'WS#<tenant>#AIANSWER#<messageId>', sk: 'AIANSWER' },
  patterns: [],
  schema: () => z.object({ at: z.string() }),
});
