import * as z from 'zod';

/**
 * What every DELETE answers: the resource under its singular name, as it was when it was deleted (or, where it
 * is kept as a record, as it is now: a revoked token, a removed member), and `deleted: true`. Nothing else.
 */
export const deletion = <Name extends string, Shape extends z.ZodType>(name: Name, resource: Shape) =>
  z.strictObject({ [name]: resource, deleted: z.literal(true) } as { [K in Name]: Shape } & { deleted: z.ZodLiteral<true> });
