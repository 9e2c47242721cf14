import * as z from 'zod';
import { ACCOUNT_STATUSES, ApiConfig, CHANNEL_TYPES, EmailConfig, SandboxConfig, type Account } from '../domain/channels/account';
import { exactly, id, time } from './common';

export const account = exactly<Account>()(
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
).meta({ id: 'ChannelAccount' });
