import * as z from 'zod';
import { OBJECT_ID } from '../../ids';
import { isScope, SCOPES } from './scopes';

/** What a token creator must supply, whoever the creator is (CLI today, a dashboard later). */
export const NewTokenInput = (now: Date) =>
  z.strictObject({
    name: z.string().trim().min(1, 'Required').max(100),
    workspaceIds: z.array(z.string().regex(OBJECT_ID, 'Must be a 24-character hex workspace id')).min(1, 'At least one workspace'),
    scopes: z
      .array(z.string().refine(isScope, { message: `Unknown scope; expected one of ${SCOPES.join(', ')}` }))
      .min(1, 'At least one scope'),
    environment: z.enum(['live', 'test']),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'Must be an ISO-8601 date or date-time' })
      .refine((v) => Date.parse(v) > now.getTime(), 'Must be in the future')
      .transform((v) => new Date(v).toISOString())
      .optional(),
  });

export const WorkspaceName = z.string().trim().min(1, 'Required').max(100);
