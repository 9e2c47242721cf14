import * as z from 'zod';
import { MemberStatus, Role, type Member } from '../domain/auth/member';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

/** A member of a workspace, as the API and the events show it. */
export const member = /* @__PURE__ */ built(() =>
  exactly<Member>()(
    z.strictObject({
      _id: id,
      email: z.string(),
      name: z.string().nullable(),
      role: Role,
      status: MemberStatus,
      invitedAt: time,
      joinedAt: time.nullable(),
      removedAt: time.nullable(),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'Member' }),
);
