import type { Tenant } from '../domain/auth/tenant';
import { ConflictError, ValidationError } from '../domain/errors';
import { Missing } from '../domain/refusal';
import { decide, extractiveReply, type Decision, type ReplyGenerator } from '../domain/ai/reply';
import type { Passage } from '../domain/ai/passages';
import type { AiSettings } from '../domain/ai/settings';
import type { Message } from '../domain/inbox/message';
import { getAiSettings } from './settings';
import { requireConversation } from '../inbox/conversations';
import { latestMessages } from '../data/messages';
import { searchKnowledge } from './knowledge';

const SUGGESTED_PASSAGES = 3;
/** How far back the latest incoming messages are looked for. */
const RECENT_MESSAGES = 20;

const GENERATORS: Record<AiSettings['provider'], ReplyGenerator> = { extractive: extractiveReply };

export interface Suggestion {
  /** The customer's words the suggestion answers. */
  question: string;
  passages: Passage[];
  /** The best passage's confidence (0 when nothing matched). */
  confidence: number;
  reply: string | null;
  decision: Decision;
}

/** Suggests a reply to `question` from the knowledge base, with the automatic-reply decision the settings make of it. */
export const suggest = async (tenant: Tenant, question: string, settings: AiSettings): Promise<Suggestion> => {
  const passages = await searchKnowledge(tenant, question, { limit: SUGGESTED_PASSAGES, language: settings.language ?? undefined });
  passages.sort((a, b) => b.confidence - a.confidence || b.score - a.score);
  const reply = await GENERATORS[settings.provider].reply({ question, passages, settings });
  return { question, passages, confidence: passages[0]?.confidence ?? 0, reply, decision: decide(question, passages[0], settings) };
};

/** The customer's messages since the last reply (or note), oldest first: what is still unanswered. */
const unanswered = (newestFirst: Message[]): Message[] => {
  const run: Message[] = [];
  for (const m of newestFirst) {
    if (m.type === 'outgoing') break;
    if (m.type === 'incoming' && m.content) run.unshift(m);
  }
  return run;
};

/** `POST /ai/suggest-reply`: a suggestion for the conversation's latest incoming messages. */
export const suggestForConversation = async (tenant: Tenant, conversationId: string): Promise<Suggestion & { messageIds: string[] }> => {
  const settings = await getAiSettings(tenant);
  if (!settings.enabled) throw new ConflictError('AI is disabled for this workspace: PATCH /ai/settings {"enabled": true}');
  await requireConversation(tenant, conversationId).catch((error: unknown) => {
    throw error instanceof Missing
      ? new ValidationError([{ path: 'conversationId', message: 'No such conversation in this workspace' }])
      : error;
  });
  const messages = unanswered(await latestMessages(tenant, conversationId, RECENT_MESSAGES));
  const suggestion = await suggest(tenant, messages.map((m) => m.content).join('\n'), settings);
  return { ...suggestion, messageIds: messages.map((m) => m._id) };
};
