import * as z from 'zod';
import { member as memberView } from '../../views/members';
import { declare } from './define';

export const member = /* @__PURE__ */ declare({
  name: 'Member',
  itemTypes: ['MEMBER'],
  personal: ['name', 'email'],
  about: 'A member of the workspace (versioned); removal unassigns their conversations through a sparse index.',
  prefixes: ['MEMBER', 'MEMBERLIST', 'MEMBERUNASSIGN'],
  keys: { pk: 'WS#<tenant>#MEMBER#<id>', sk: 'MEMBER', gsi1pk: 'MEMBERUNASSIGN', gsi1sk: '<removedAt>#<tenant>#<id>' },
  schema: () => memberView.extend({ version: z.number() }),
  patterns: [
    { read: 'member by id', by: 'pk=<tenant>#MEMBER#<id> sk=MEMBER' },
    { read: 'a list of members', by: 'pk=<tenant>#MEMBERLIST#<list>' },
    { read: 'removed members still to unassign', by: 'gsi1pk=MEMBERUNASSIGN gsi1sk < now', index: 'gsi1' },
  ],
});

export const memberEmail = /* @__PURE__ */ declare({
  name: 'Member email claim',
  itemTypes: ['MEMBER_EMAIL'],
  personal: ['pk'],
  about: 'Holds an email (lower case) for one member while that member is not removed.',
  prefixes: ['MEMBEREMAIL', 'EMAIL'],
  keys: { pk: 'WS#<tenant>#MEMBEREMAIL#<email>', sk: 'EMAIL' },
  schema: () => z.object({ memberId: z.string() }),
  patterns: [{ read: 'member by email', by: 'pk=<tenant>#MEMBEREMAIL#<email> sk=EMAIL' }],
});
