import * as z from 'zod';
import { article as articleView, settings as settingsView, articleSummary as summaryView } from '../../views/ai';
import { declare, entity } from './define';

export const article = declare({
  name: 'Knowledge-base article',
  itemTypes: ['ARTICLE'],
  personal: [],
  about: 'An article (versioned).',
  prefixes: ['KBART', 'ARTICLE'],
  keys: { pk: 'WS#<tenant>#KBART#<id>', sk: 'ARTICLE' },
  patterns: [{ read: 'article by id', by: 'pk=<tenant>#KBART#<id> sk=ARTICLE' }],
  schema: articleView.extend({ version: z.number() }),
});

export const articleSummary = declare({
  name: 'Knowledge-base article summary',
  itemTypes: ['ARTICLE_SUMMARY'],
  personal: [],
  about:
    'An article without its body, in the newest-first list: a page of 100 full articles could pass Query’s 1 MB page and the API’s payload limit.',
  prefixes: ['KBARTS'],
  keys: { pk: 'WS#<tenant>#KBARTS', sk: '<id>' },
  patterns: [{ read: 'articles, newest first', by: 'pk=<tenant>#KBARTS' }],
  schema: summaryView,
});

export const searchIndex = entity({
  name: 'Knowledge-base search index',
  itemTypes: ['KB_DOC', 'KB_CHANGE'],
  personal: [],
  about: 'What the index holds of each published article, and a log of changes numbered by the head.',
  prefixes: ['KBIDX', 'HEAD', 'DOC', 'CHG'],
  keys: { pk: '<tenant>#KBIDX', sk: 'HEAD | DOC#<article id> | CHG#<seq, 12 digits>' },
  patterns: [
    { read: 'indexed articles', by: 'pk=<tenant>#KBIDX sk begins_with DOC#' },
    { read: 'changes since a seq', by: 'pk=<tenant>#KBIDX sk between CHG#<from> and CHG#<to>' },
  ],
});

export const aiSettings = declare({
  name: 'AI settings',
  itemTypes: ['AI_SETTINGS'],
  personal: [],
  about: "The tenant's AI settings (versioned): what it saved, over the defaults; no item means the defaults.",
  prefixes: ['AI_SETTINGS'],
  keys: { pk: 'WS#<tenant>', sk: 'AI_SETTINGS' },
  patterns: [{ read: 'AI settings', by: 'pk=<tenant> sk=AI_SETTINGS' }],
  schema: z.object({ settings: settingsView.partial().default({}), version: z.number().default(0) }),
});

export const aiAnswer = declare({
  name: 'AI answer guard',
  itemTypes: ['AI_ANSWER'],
  personal: [],
  about: "Created in an automatic answer's transaction, so a message is answered at most once.",
  prefixes: ['AIANSWER'],
  keys: { pk: 'WS#<tenant>#AIANSWER#<messageId>', sk: 'AIANSWER' },
  patterns: [],
  schema: z.object({ at: z.string() }),
});
