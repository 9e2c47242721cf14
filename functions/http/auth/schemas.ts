import * as z from 'zod';
import { tokenState, type TokenRecord } from '../../../shared/domain/auth/token';
import type { apiToken } from '../../../shared/views/auth';
import { tokenBody } from '../../../shared/views/tokens';
import { ObjectId } from '../../../shared/http/params';
import { built } from '../../../shared/domain/built';

export const TokenParams = /* @__PURE__ */ built(() => z.strictObject({ id: ObjectId }));

export const tokenView = (t: TokenRecord, now: Date): z.infer<typeof apiToken> => ({ ...tokenBody(t), status: tokenState(t, now) });
