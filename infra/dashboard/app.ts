/// <reference lib="dom" />
import { h } from './dom';
import { clearSession, clientFor, loadSession, saveSession, unwrap } from './session';
import { tokensPage } from './tokens';
import { deliveriesPage, webhooksPage } from './webhooks';
import { executionPage, workflowsPage } from './workflows';

const main = document.querySelector<HTMLElement>('#main')!;
const nav = document.querySelector<HTMLElement>('#nav')!;

/** Sign-in: the token is checked against the API, which also lists the workspaces it may act in. */
const signIn = () => {
  const token = h('input', { type: 'password', name: 'token', autocomplete: 'off', placeholder: 'sk_live_… or sk_test_…', required: true });
  const error = h('p', { className: 'error', role: 'alert' });
  main.replaceChildren(
    h('h1', {}, 'Sign in'),
    h(
      'form',
      {
        onsubmit: async (e: Event) => {
          e.preventDefault();
          try {
            const { workspaces } = await unwrap<{ workspaces: { _id: string; name: string }[] }>(clientFor({ token: token.value }).GET('/api/v1/auth/workspaces'));
            if (!workspaces[0]) throw new Error('This token has no workspace');
            saveSession({ token: token.value, workspaceId: workspaces[0]._id });
            location.hash = '#/settings/developer/tokens';
            render();
          } catch (err) {
            error.textContent = (err as Error).message;
          }
        },
      },
      h('label', {}, 'API token ', token),
      h('button', { type: 'submit' }, 'Sign in'),
      error,
    ),
  );
};

const render = async () => {
  const session = loadSession();
  nav.hidden = !session;
  if (!session) return signIn();
  const api = clientFor(session);
  const hash = location.hash.replace(/^#/, '') || '/settings/developer/tokens';
  const [, section, id, sub] = hash.split('/');
  main.setAttribute('aria-busy', 'true');
  try {
    if (section === 'webhooks' && id) await deliveriesPage(api, main, id, render);
    else if (section === 'webhooks') await webhooksPage(api, main);
    else if (section === 'workflows' && id === 'executions' && sub) await executionPage(api, main, sub);
    else if (section === 'workflows') await workflowsPage(api, main);
    else await tokensPage(api, main, render);
  } catch (err) {
    main.replaceChildren(h('h1', {}, 'Something went wrong'), h('p', { className: 'error', role: 'alert' }, (err as Error).message));
  } finally {
    main.setAttribute('aria-busy', 'false');
  }
};

document.querySelector('#sign-out')!.addEventListener('click', () => {
  clearSession();
  location.hash = '';
  render();
});
window.addEventListener('hashchange', render);
render();
