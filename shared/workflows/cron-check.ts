import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { deployed } from '../config';

type Cron = typeof import('../domain/workflows/cron');

/**
 * croner, for a schedule trigger's cron check. zod checks synchronously, so croner must be loaded before a body
 * naming a cron is validated: on Lambda by `withCronCheck` at the first such request, so a cold start and every
 * request without a cron do without it (32 KB); elsewhere (tests and tools that parse the workflow bodies
 * directly, the local runtime) at import.
 */
let cron: Cron | undefined;
const loadCron = async () => {
  cron ??= await import('../domain/workflows/cron');
};
if (!deployed()) await loadCron();

/** Whether `text` is a 5-field cron expression croner accepts (`../domain/workflows/cron`). */
export const validCron = (text: string): boolean => {
  if (!cron) throw new Error('a cron reached its check before croner was loaded');
  return cron.validCron(text);
};

/**
 * Whether a request's body may name a cron: only a JSON key `cron` reaches the check, and JSON writes it as
 * those four letters or with `\u` escapes. Any other body is validated without croner.
 */
const mayNameCron = ({ body, isBase64Encoded }: APIGatewayProxyEventV2): boolean => {
  if (!body) return false;
  const text = isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
  return text.includes('cron') || text.includes('\\u');
};

/** A route whose body has a cron check (`validCron`), with croner loaded before a body that may name a cron is validated. */
export const withCronCheck = <H extends (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>>(handler: H): H =>
  Object.assign(async (event: APIGatewayProxyEventV2, context: Context) => {
    if (mayNameCron(event)) await loadCron();
    return handler(event, context);
  }, handler);
