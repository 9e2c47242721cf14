import { empty, h, showOnce, status, table, when } from './dom';
import { unwrap } from './session';
import type { ParleyClient } from '../client/src/client';

/** The API's scopes, as the token form offers them (the browser test holds them to the server's list). */
const SCOPES = [
  'inbox:read',
  'inbox:write',
  'crm:read',
  'crm:create',
  'crm:update',
  'crm:delete',
  'contacts:read',
  'contacts:write',
  'channels:read',
  'channels:write',
  'workflows:read',
  'workflows:write',
  'webhooks:read',
  'webhooks:write',
  'ai:read',
  'ai:write',
  'tags:read',
  'tags:write',
  'analytics:read',
  'admin:all',
];

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
        const scopes = boxes.filter((b) => b.checked).map((b) => b.value);
        try {
          const { token } = await unwrap<{ token: { token: string; name: string } }>(
            api.POST('/api/v1/auth/tokens', {
              body: { name: name.value, scopes, ...(expires.value ? { expiresAt: new Date(expires.value).toISOString() } : {}) },
            }),
          );
          await tokensPage(api, main, rerender);
          showOnce(main.querySelector('#created-token')!, `Token “${token.name}” created`, token.token, 'new-token-value');
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
    t.status === 'active' ? h('button', { type: 'button', 'data-revoke': t._id, onclick: () => revoke(api, t, rerender) }, 'Revoke') : null,
  ]);
  main.replaceChildren(
    h('h1', {}, 'API Tokens'),
    created,
    h('section', {}, h('h2', {}, 'Create a token'), form),
    h(
      'section',
      {},
      h('h2', {}, 'Tokens'),
      tokens.length
        ? table(['Name', 'Prefix', 'Scopes', 'Status', 'Created', 'Expires', ''], rows)
        : empty('No tokens yet. Create one above to call the API.'),
    ),
  );
};

const revoke = async (api: ParleyClient, t: TokenRow, rerender: () => void) => {
  if (!confirm(`Revoke “${t.name}”? Requests with it fail at once.`)) return;
  await unwrap(api.DELETE('/api/v1/auth/tokens/{id}', { params: { path: { id: t._id } } }));
  rerender();
};
