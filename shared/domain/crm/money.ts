import * as z from 'zod';
import { built } from '../built';

/** ISO 4217 codes as the runtime's ICU knows them (e.g. USD, EUR, JPY); an unknown code is refused. */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/**
 * Amounts are integer minor units (cents). The cap keeps every per-stage sum of a pipeline an exact
 * JavaScript integer (below 2^53) up to about 90,000 leads at the cap.
 */
const MAX_AMOUNT = 100_000_000_000;

export const Money = /* @__PURE__ */ built(() =>
  z.strictObject({
    amount: z.number().int('Must be an integer number of minor units (cents)').min(0).max(MAX_AMOUNT),
    currency: z.string().refine((c) => CURRENCIES.has(c), 'Must be an ISO 4217 currency code in upper case, e.g. USD'),
  }),
);
export type Money = z.infer<typeof Money>;
