import { envelopeTenant, type EventEnvelope } from '../events/envelope';
import { Missing } from '../domain/refusal';
import type { Message } from '../domain/inbox/message';
import { getAiSettings } from './settings';
import { answerGuard } from '../data/ai-answers';
import { postMessage } from '../inbox/messages';
import { suggest, type Suggestion } from './suggest';
import type { Unit } from '../data/unit';

class AlreadyAnswered extends Error {}

export type AutoOutcome = 'off' | 'handoff' | 'replied' | 'suggested' | 'duplicate' | 'gone';

/**
 * On `inbox.message.received`: with `autoReply: auto` a confident suggestion is sent as an outgoing
 * message by author `ai`; with `suggest` it is left as a private note for the agent. A handoff keyword or a
 * low confidence writes nothing and leaves the conversation to an agent. The message goes through the
 * same `postMessage` as an agent's reply, in one transaction with a guard item keyed by the incoming
 * message's id: a redelivered event (or a second consumer) can never answer twice.
 */
export const answerIncoming = async (
  unit: Unit,
  envelope: EventEnvelope,
  now = new Date(),
): Promise<{ outcome: AutoOutcome; suggestion?: Suggestion }> => {
  const tenant = envelopeTenant(envelope);
  const message = envelope.data.message as Message;
  const settings = await getAiSettings(tenant);
  if (!settings.enabled || settings.autoReply === 'off' || !message.content) return { outcome: 'off' };
  const suggestion = await suggest(tenant, message.content, settings);
  if (suggestion.decision.action !== 'reply' || !suggestion.reply) return { outcome: 'handoff', suggestion };
  const auto = settings.autoReply === 'auto';
  const guard = answerGuard(tenant, message._id, now, () => new AlreadyAnswered());
  try {
    await postMessage(
      unit,
      tenant,
      message.conversationId,
      { type: auto ? 'outgoing' : 'note', content: suggestion.reply, author: { type: 'ai', id: null } },
      now,
      () => [guard],
    );
  } catch (error) {
    if (error instanceof AlreadyAnswered) return { outcome: 'duplicate', suggestion };
    if (error instanceof Missing) return { outcome: 'gone', suggestion };
    throw error;
  }
  return { outcome: auto ? 'replied' : 'suggested', suggestion };
};
