import * as z from 'zod';
import { ACCOUNT_STATUSES, ApiConfig, CHANNEL_TYPES, EmailConfig, SandboxConfig, type Account } from '../domain/channels/account';
import { recipient } from './broadcasts';
import { exactly, id, time } from './common';
import { built } from '../domain/built';
import { conversation, message } from './inbox';

export const account = /* @__PURE__ */ built(() =>
  exactly<Account>()(
    z.strictObject({
      _id: id,
      type: z.enum(CHANNEL_TYPES),
      name: z.string(),
      status: z.enum(ACCOUNT_STATUSES),
      config: z.union([ApiConfig, EmailConfig, SandboxConfig]),
      ratePerSecond: z.number().int().min(1),
      secretNames: z.array(z.enum(['signingSecret', 'smtpPassword'])),
      lastError: z.strictObject({ reason: z.string(), at: time }).nullable(),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'ChannelAccount' }),
);

/** An account as its creation answers it: with its signing secret, shown this once. */
export const accountWithSecret = /* @__PURE__ */ built(() =>
  account.extend({ signingSecret: z.string() }).meta({ id: 'ChannelAccountWithSecret' }),
);

/** An account's connection state alone. */
export const accountStatus = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      channelId: id,
      type: z.enum(CHANNEL_TYPES),
      status: z.enum(ACCOUNT_STATUSES),
      canSend: z.boolean(),
      lastError: account.shape.lastError,
      updatedAt: time,
    })
    .meta({ id: 'ChannelAccountStatus' }),
);

const received = /* @__PURE__ */ built(() => ({ message, conversation, duplicate: z.boolean() }));

/** What an inbound call recorded: a message (from a provider's call or a raw email), or a status receipt. */
export const inbound = /* @__PURE__ */ built(() =>
  z
    .union([
      z.strictObject({ type: z.enum(['message', 'email']), ...received }),
      z.strictObject({ type: z.literal('status'), applied: z.boolean() }),
      z.strictObject({ type: z.literal('status'), recipient: recipient.optional() }),
    ])
    .meta({ id: 'ChannelInbound' }),
);
