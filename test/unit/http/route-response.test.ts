import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { route } from '../../../shared/http/route';

const Answer = z.strictObject({ name: z.string() });

describe('route() and its response schema', () => {
  it('keeps the schema on the route and checks the handler against it when compiling', () => {
    const declared = route({ scope: null, workspace: false, response: Answer }, async () => ({ name: 'x' }));
    // @ts-expect-error the handler returns a number where the schema says string
    route({ scope: null, workspace: false, response: Answer }, async () => ({ name: 1 }));
    // @ts-expect-error the handler leaves out a field the schema requires
    route({ scope: null, workspace: false, response: Answer }, async () => ({}));
    // @ts-expect-error a JSON route must declare its response (a file, the public document and the fallback need not)
    route({ scope: null, workspace: false }, async () => ({}));
    expect(declared.spec.response).toBe(Answer);
  });
});
