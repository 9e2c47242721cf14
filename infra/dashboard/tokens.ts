/// <reference lib="dom" />
import { SCOPES } from '../../shared/domain/auth/scopes';
import { h, status, table, when } from './dom';
import { unwrap } from './session';
import type { ParleyClient } from '../client/src/client';

interface TokenRow {
  _id: string;
  name: string;
  prefix: string;
  scopes: string[];
  status: string;
  createdAt: string;
  expiresAt?: string;
}

/** Settings › Developer › API Tokens: the list, a creation form whose token is shown once, and revocation. */
export const tokensPage = async (api: ParleyClient, main: HTMLElement, rerender: () => void): Promise<void> => {
  const { tokens } = await unwrap<{ tokens: TokenRow[] }>(api.GET('/api/v1/auth/tokens'));
  const created = h('div', { id: 'created-token' });
  const error = h('p', { className: 'error', role: 'alert' });
  const name = h('input', { type: 'text', name: 'name', required: true, placeholder: 'e.g. CRM sync' });
  const expires = h('input', { type: 'datetime-local', name: 'expiresAt' });
  const boxes = SCOPES.map((s) => h('input', { type: 'checkbox', value: s, name: 'scope' }));
  const form = h(
    'form',
    {
      onsubmit: async (e: Event) => {
        e.preventDefault();
        error.textContent = '';
        const scopes = boxes.filter((b) => b.checked).map((b) => b.value) as (typeof SCOPES)[number][];
        try {
          const { token } = await unwrap<{ token: { token: string; name: string } }>(
            api.POST('/api/v1/auth/tokens', {
              body: { name: name.value, scopes, ...(expires.value ? { expiresAt: new Date(expires.value).toISOString() } : {}) },
            }),
          );
          await tokensPage(api, main, rerender);
          showOnce(main.querySelector('#created-token')!, token.name, token.token);
        } catch (err) {
          error.textContent = (err as Error).message;
        }
      },
    },
    h('label', {}, 'Name ', name),
    h('fieldset', {}, h('legend', {}, 'Scopes'), h('div', { className: 'scopes' }, ...boxes.map((b) => h('label', {}, b, ` ${b.value}`)))),
    h('label', {}, 'Expires (optional) ', expires),
    h('button', { type: 'submit' }, 'Create token'),
    error,
  );
  const rows = tokens.map((t) => [
    t.name,
    h('code', {}, `${t.prefix}…`),
    t.scopes.join(', '),
    status(t.status),
    when(t.createdAt),
    when(t.expiresAt),
    t.status === 'active'
      ? h('button', { type: 'button', 'data-revoke': t._id, onclick: () => revoke(api, t, rerender) }, 'Revoke')
      : null,
  ]);
  main.replaceChildren(
    h('h1', {}, 'API Tokens'),
    created,
    h('section', {}, h('h2', {}, 'Create a token'), form),
    h('section', {}, h('h2', {}, 'Tokens'), tokens.length ? table(['Name', 'Prefix', 'Scopes', 'Status', 'Created', 'Expires', ''], rows) : h('p', {}, 'No tokens yet.')),
  );
};

/** The secret, this once: copyable, and gone from the page when dismissed or on the next visit. */
const showOnce = (slot: Element, name: string, secret: string) => {
  const copied = h('span', { role: 'status' });
  slot.replaceChildren(
    h(
      'section',
      {},
      h('h2', {}, `Token “${name}” created`),
      h('p', {}, 'Copy it now: it is shown only this once and cannot be recovered.'),
      h('div', { className: 'secret', id: 'new-token-value' }, secret),
      h('button', { type: 'button', onclick: async () => { await navigator.clipboard.writeText(secret); copied.textContent = ' Copied.'; } }, 'Copy'),
      copied,
      h('button', { type: 'button', onclick: () => slot.replaceChildren() }, 'Done'),
    ),
  );
};

const revoke = async (api: ParleyClient, t: TokenRow, rerender: () => void) => {
  if (!confirm(`Revoke “${t.name}”? Requests with it fail at once.`)) return;
  await unwrap(api.DELETE('/api/v1/auth/tokens/{id}', { params: { path: { id: t._id } } }));
  rerender();
};
