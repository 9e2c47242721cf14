import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversation } from '../../../shared/views/inbox';
import { createConversation } from '../../../shared/inbox/conversations';
import { CreateConversation } from './schemas';

export const handler = route(
  { scope: 'inbox:write', body: CreateConversation, status: 201, response: z.strictObject({ conversation }) },
  async ({ body, tenant, now, unit }) => ({ conversation: await createConversation(unit, tenant, body, now) }),
);
