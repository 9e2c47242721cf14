/**
 * `{{path}}` templates in node configs (docs/guide/workflows.md): a path names data, never code. A missing path renders
 * as an empty string; an object renders as its JSON.
 */
const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const SEGMENT = '[A-Za-z0-9_-]+';
const WELL_FORMED = new RegExp(
  `^(?:trigger(?:\\.${SEGMENT})*|nodes\\.${SEGMENT}\\.output(?:\\.${SEGMENT})*|vars(?:\\.${SEGMENT})+|error\\.(?:message|category|nodeType|nodeId))$`,
);

export interface TemplateScope {
  trigger: unknown;
  nodes: Record<string, { output: unknown }>;
  vars: Record<string, unknown>;
  error?: Record<string, string>;
}

/** The paths a string refers to, and what is wrong with it (an unclosed `{{`, an ill-formed path). */
export const templatePaths = (text: string): { paths: string[]; problem?: string } => {
  const paths = [...text.matchAll(TEMPLATE)].map((m) => m[1]!);
  const bad = paths.find((p) => !WELL_FORMED.test(p));
  if (bad !== undefined) return { paths, problem: `Template path "{{${bad}}}" is not trigger.*, nodes.<id>.output.*, vars.* or error.*` };
  if (text.replace(TEMPLATE, '').includes('{{')) return { paths, problem: 'Unclosed template "{{"' };
  return { paths };
};

const lookup = (scope: TemplateScope, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (v, seg) => (v !== null && typeof v === 'object' && Object.hasOwn(v, seg) ? (v as Record<string, unknown>)[seg] : undefined),
      scope,
    );

const text = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

const renderString = (template: string, scope: TemplateScope): string =>
  template.replace(TEMPLATE, (_, path: string) => text(lookup(scope, path)));

/** Every string inside `value` rendered; other values kept. */
export const render = <T>(value: T, scope: TemplateScope): T => {
  if (typeof value === 'string') return renderString(value, scope) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => render(v, scope)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, scope)])) as T;
  return value;
};

/** Every string inside a config with its path (segments) relative to the config. */
export const stringsIn = (value: unknown, path: (string | number)[] = []): { path: (string | number)[]; text: string }[] => {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringsIn(v, [...path, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringsIn(v, [...path, k]));
  return [];
};
