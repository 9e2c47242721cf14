import * as z from 'zod';
import { isStorableNumber } from '../free-form';
import { Locale } from './article';
import { built } from '../built';

export const AUTO_REPLY_MODES = ['off', 'suggest', 'auto'] as const;
export const TONES = ['neutral', 'friendly', 'formal'] as const;
/** `extractive` quotes the knowledge base, with no model and no network; the only provider built today. */
export const PROVIDERS = ['extractive'] as const;

export interface AiSettings {
  enabled: boolean;
  autoReply: (typeof AUTO_REPLY_MODES)[number];
  /** A suggestion's confidence must reach this for an automatic reply. */
  confidenceThreshold: number;
  /** An incoming message containing one of these (case-insensitive, whole words) always goes to an agent. */
  handoffKeywords: string[];
  tone: (typeof TONES)[number];
  /** Suggestions come from articles in this language (BCP 47); null: any. */
  language: string | null;
  provider: (typeof PROVIDERS)[number];
  updatedAt: string | null;
}

export const DEFAULT_SETTINGS: AiSettings = {
  enabled: false,
  autoReply: 'off',
  confidenceThreshold: 0.8,
  handoffKeywords: ['human', 'agent', 'person', 'representative'],
  tone: 'neutral',
  language: null,
  provider: 'extractive',
  updatedAt: null,
};

export const UpdateSettings = /* @__PURE__ */ built(() =>
  z.strictObject({
    enabled: z.boolean().optional(),
    autoReply: z.enum(AUTO_REPLY_MODES).optional(),
    confidenceThreshold: z.number().min(0).max(1).refine(isStorableNumber, 'Must be 0 or at least 1e-130').optional(),
    handoffKeywords: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
    tone: z.enum(TONES).optional(),
    language: Locale.nullable().optional(),
    provider: z.enum(PROVIDERS).optional(),
  }),
);
export type UpdateSettings = z.output<typeof UpdateSettings>;

export const applySettings = (settings: AiSettings, input: UpdateSettings, now: Date): { settings: AiSettings; changed: boolean } => {
  const next = { ...settings, ...input };
  const changed = (Object.keys(input) as (keyof UpdateSettings)[]).some((k) => JSON.stringify(next[k]) !== JSON.stringify(settings[k]));
  return { settings: changed ? { ...next, updatedAt: now.toISOString() } : settings, changed };
};
