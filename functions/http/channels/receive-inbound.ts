import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { inbound } from '../../../shared/views/channels';
import { INBOUND_SIGNATURE_HEADER, InboundEvent } from '../../../shared/domain/channels/inbound';
import { receiveInbound } from '../../../shared/channels/inbound';
import { IdParams } from '../../../shared/http/params';
import { needsSecretBox } from '../../../shared/secrets/box';

needsSecretBox();

/** A provider's call: an incoming message, a raw email, or a status receipt, HMAC-signed with the account's signing secret. */
export const handler = route(
  { scope: 'channels:write', params: IdParams, body: InboundEvent, response: z.strictObject({ inbound }), errors: ['UNAUTHORIZED'] },
  async ({ params, body, tenant, now, request, unit }) => ({
    inbound: await receiveInbound(
      unit,
      tenant,
      params.id,
      body,
      { body: request.rawBody, signature: request.header(INBOUND_SIGNATURE_HEADER) },
      now,
    ),
  }),
);
