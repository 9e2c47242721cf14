import type { Passage } from './passages';
import type { AiSettings } from './settings';

/** What a reply is built from: the customer's words and the passages the knowledge base ranked for them. */
interface ReplyInput {
  question: string;
  passages: Passage[];
  settings: Pick<AiSettings, 'tone' | 'language'>;
}

/**
 * Turns passages into a reply. The embedded default is extractive (below); a generative provider (e.g.
 * Amazon Bedrock) would implement the same interface and be chosen by `settings.provider`.
 */
export interface ReplyGenerator {
  reply(input: ReplyInput): Promise<string | null>;
}

const FRAMES: Record<AiSettings['tone'], [string, string]> = {
  neutral: ['', ''],
  friendly: ['Hi there! ', ' Hope this helps!'],
  formal: ['Hello, ', ' Kind regards.'],
};

/** The best passage, quoted as written; the tone's greeting and closing are English, so other languages get the passage alone. */
export const extractiveReply: ReplyGenerator = {
  reply: async ({ passages, settings }) => {
    const best = passages[0];
    if (!best) return null;
    const english = !settings.language || settings.language.toLowerCase().startsWith('en');
    const [open, close] = english ? FRAMES[settings.tone] : FRAMES.neutral;
    return `${open}${best.text}${close}`;
  },
};

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The handoff keywords the text contains, as whole words or phrases, ignoring case. */
export const handoffMatches = (text: string, keywords: readonly string[]): string[] =>
  keywords.filter((k) =>
    new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(k.toLowerCase())}($|[^\\p{L}\\p{N}])`, 'u').test(text.toLowerCase()),
  );

export type Decision = { action: 'reply' } | { action: 'handoff'; reason: 'keyword' | 'low_confidence' | 'no_match'; keywords?: string[] };

/** Whether an automatic reply may answer, given the best passage's confidence. */
export const decide = (
  text: string,
  best: Passage | undefined,
  settings: Pick<AiSettings, 'handoffKeywords' | 'confidenceThreshold'>,
): Decision => {
  const keywords = handoffMatches(text, settings.handoffKeywords);
  if (keywords.length > 0) return { action: 'handoff', reason: 'keyword', keywords };
  if (!best) return { action: 'handoff', reason: 'no_match' };
  if (best.confidence < settings.confidenceThreshold) return { action: 'handoff', reason: 'low_confidence' };
  return { action: 'reply' };
};
