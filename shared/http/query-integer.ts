import * as z from 'zod';

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * An integer query parameter: plain decimal digits only, no sign, space, leading zero, exponent or `0x`
 * (which `Number` would all read), then `schema`'s bounds. The document still says `integer`.
 */
export const queryInteger = (schema: z.ZodNumber) =>
  z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    if (DECIMAL.test(value)) return Number(value);
    ctx.addIssue({ code: 'custom', message: 'Must be a whole number in plain decimal digits', input: value });
    return z.NEVER;
  }, schema);
