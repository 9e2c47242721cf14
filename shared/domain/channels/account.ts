import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { ConflictError, ValidationError } from '../errors';
import { built } from '../built';

export const CHANNEL_TYPES = ['api', 'email', 'sandbox'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** The conversation `channel` a conversation on an account of this type has when the caller names none. */
export const conversationChannelOf = (type: ChannelType): 'api' | 'email' => (type === 'email' ? 'email' : 'api');

export const ACCOUNT_STATUSES = ['connected', 'disconnected', 'error'] as const;
type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/**
 * Sends per second per account when the account does not say (broadcast sends are throttled to it): what
 * the far end can take. An `api` URL is the customer's own server and an `email` host an SMTP relay, both
 * commonly limited to tens of messages a second; the sandbox sends nowhere, so it runs at provider speed.
 * See docs/guide/channels.md.
 */
const DEFAULT_RATE_PER_SECOND: Record<ChannelType, number> = { api: 20, email: 20, sandbox: 500 };
const MAX_RATE_PER_SECOND = 1000;

const Name = /* @__PURE__ */ built(() => z.string().trim().min(1).max(100));
const Rate = /* @__PURE__ */ built(() =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_RATE_PER_SECOND)
    .describe(
      `Broadcast sends per second through the account; when not given at creation, by type: ${CHANNEL_TYPES.map((t) => `${t} ${DEFAULT_RATE_PER_SECOND[t]}`).join(', ')}`,
    ),
);
const Secret = /* @__PURE__ */ built(() => z.string().min(16).max(256));

export const ApiConfig = /* @__PURE__ */ built(() => z.strictObject({ url: z.url({ protocol: /^https$/ }).max(2048) }));
export const EmailConfig = /* @__PURE__ */ built(() =>
  z.strictObject({
    from: z.email().max(320),
    host: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .regex(/^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|[0-9A-Fa-f:.]+)$/, 'Must be a host name or an IP address'),
    port: z.number().int().min(1).max(65535),
    /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
    secure: z.boolean().default(false),
    username: z.string().min(1).max(320).optional(),
  }),
);
/** The simulated provider: which receipts follow a send, or the failure every send ends in. */
export const SandboxConfig = /* @__PURE__ */ built(() =>
  z.strictObject({
    deliver: z.boolean().default(true),
    read: z.boolean().default(false),
    failWith: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, 'Must be a snake_case reason like invalid_recipient')
      .nullable()
      .default(null),
  }),
);

const CONFIGS = { api: ApiConfig, email: EmailConfig, sandbox: SandboxConfig } as const;
export type ChannelConfig = z.output<typeof ApiConfig> | z.output<typeof EmailConfig> | z.output<typeof SandboxConfig>;

/** Write-only secrets: accepted on create and update, stored encrypted, never returned (only their names). */
export const Secrets = /* @__PURE__ */ built(() =>
  z.strictObject({ signingSecret: Secret.optional(), smtpPassword: z.string().min(1).max(256).optional() }),
);
export type Secrets = z.output<typeof Secrets>;

const base = () => ({ name: Name, ratePerSecond: Rate.optional(), secrets: Secrets.optional() });
export const CreateChannel = /* @__PURE__ */ built(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('api'), config: ApiConfig, ...base() }),
    z.strictObject({ type: z.literal('email'), config: EmailConfig, ...base() }),
    z.strictObject({
      type: z.literal('sandbox'),
      config: SandboxConfig.default({ deliver: true, read: false, failWith: null }),
      ...base(),
    }),
  ]),
);
export type CreateChannel = z.output<typeof CreateChannel>;

/** A PATCH: `config` replaces the whole config and is checked against the account's type. */
export const UpdateChannel = /* @__PURE__ */ built(() =>
  z.strictObject({
    name: Name.optional(),
    ratePerSecond: Rate.optional(),
    config: z.record(z.string(), z.unknown()).optional(),
    secrets: Secrets.optional(),
  }),
);
export type UpdateChannel = z.output<typeof UpdateChannel>;

export interface Account {
  _id: string;
  type: ChannelType;
  name: string;
  status: AccountStatus;
  config: ChannelConfig;
  ratePerSecond: number;
  /** Names of the secrets the account holds; their values are never shown. */
  secretNames: (keyof Secrets)[];
  lastError: { reason: string; at: string } | null;
  createdAt: string;
  updatedAt: string;
}

const generateSigningSecret = (): string => `chs_${randomBytes(32).toString('base64url')}`;

const secretNamesOf = (secrets: Secrets) => (Object.keys(secrets) as (keyof Secrets)[]).filter((k) => secrets[k] !== undefined).sort();

const checkSecrets = (type: ChannelType, secrets: Secrets): void => {
  if (secrets.smtpPassword !== undefined && type !== 'email') {
    throw new ValidationError([{ path: 'secrets.smtpPassword', message: 'Only email channels take an SMTP password' }]);
  }
};

/** A new account, connected, with its secrets (a signing secret is generated unless given). */
export const newAccount = (_id: string, input: CreateChannel, now: Date): { account: Account; secrets: Secrets } => {
  const secrets: Secrets = { ...input.secrets, signingSecret: input.secrets?.signingSecret ?? generateSigningSecret() };
  checkSecrets(input.type, secrets);
  const at = now.toISOString();
  return {
    account: {
      _id,
      type: input.type,
      name: input.name,
      status: 'connected',
      config: input.config,
      ratePerSecond: input.ratePerSecond ?? DEFAULT_RATE_PER_SECOND[input.type],
      secretNames: secretNamesOf(secrets),
      lastError: null,
      createdAt: at,
      updatedAt: at,
    },
    secrets,
  };
};

const parseConfig = (type: ChannelType, config: unknown): ChannelConfig => {
  const parsed = CONFIGS[type].safeParse(config);
  if (parsed.success) return parsed.data;
  throw new ValidationError(parsed.error.issues.map((i) => ({ path: ['config', ...i.path].join('.'), message: i.message })));
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The account after a PATCH and the merged secrets, or undefined when nothing changes. */
export const patchAccount = (
  before: Account,
  secrets: Secrets,
  patch: UpdateChannel,
  now: Date,
): { account: Account; secrets: Secrets } | undefined => {
  const merged: Secrets = { ...secrets, ...patch.secrets };
  checkSecrets(before.type, merged);
  const after: Account = {
    ...before,
    name: patch.name ?? before.name,
    ratePerSecond: patch.ratePerSecond ?? before.ratePerSecond,
    config: patch.config === undefined ? before.config : parseConfig(before.type, patch.config),
    secretNames: secretNamesOf(merged),
  };
  if (same(after, before) && same(merged, secrets)) return undefined;
  return { account: { ...after, updatedAt: now.toISOString() }, secrets: merged };
};

export type AccountAction = 'connect' | 'disconnect';

/** connect: disconnected or error → connected (clearing the error); disconnect: connected or error → disconnected. */
export const transition = (before: Account, action: AccountAction, now: Date): Account => {
  const target: AccountStatus = action === 'connect' ? 'connected' : 'disconnected';
  if (before.status === target) throw new ConflictError(`Channel is already ${target}`, { status: before.status });
  return { ...before, status: target, lastError: action === 'connect' ? null : before.lastError, updatedAt: now.toISOString() };
};

/** A provider refused the account's credentials or address: the account goes to `error` until reconnected. */
export const errored = (before: Account, reason: string, now: Date): Account => ({
  ...before,
  status: 'error',
  lastError: { reason, at: now.toISOString() },
  updatedAt: now.toISOString(),
});
