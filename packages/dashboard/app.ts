import { busy, errorLine, h } from './dom';
import { endpointPage } from './endpoint';
import { endpointsPage } from './endpoints';
import { eventsPage } from './events';
import { executionPage } from './execution';
import { clearSession, clientFor, isLive, loadSession, type Session } from './session';
import { signIn } from './signin';
import { tokensPage } from './tokens';
import { workflowsPage } from './workflows';

const main = document.querySelector<HTMLElement>('#main')!;
const nav = document.querySelector<HTMLElement>('#nav')!;
const account = document.querySelector<HTMLElement>('#account')!;

/** The header names the workspace and says whether the token acts on live or test data. */
const showAccount = (session: Session | undefined) => {
  nav.hidden = account.hidden = !session;
  if (!session) return;
  const live = isLive(session.token);
  account.querySelector('#workspace')!.textContent = session.workspaceName;
  const mode = account.querySelector<HTMLElement>('#mode')!;
  mode.textContent = live ? 'Live' : 'Test mode';
  mode.className = `mode ${live ? 'mode-live' : 'mode-test'}`;
};

/** Shows the page at `hash`, rendering it once: a change of hash renders through `hashchange`. */
const go = (hash: string) => {
  if (location.hash === hash) void render();
  else location.hash = hash;
};

/** What the page on show keeps running (the events feed's socket): stopped when another page renders. */
let shown = new AbortController();

const render = async () => {
  shown.abort();
  shown = new AbortController();
  const session = loadSession();
  showAccount(session);
  if (!session) return signIn(main, () => go('#/settings/developer/tokens'));
  const api = clientFor(session);
  const hash = location.hash.replace(/^#/, '') || '/settings/developer/tokens';
  const [, section, id, sub] = hash.split('/');
  main.setAttribute('aria-busy', 'true');
  main.replaceChildren(busy());
  try {
    if (section === 'webhooks' && id) await endpointPage(api, main, id);
    else if (section === 'webhooks') await endpointsPage(api, main);
    else if (section === 'workflows' && id === 'executions' && sub) await executionPage(api, main, sub);
    else if (section === 'workflows') await workflowsPage(api, main);
    else if (section === 'events') await eventsPage(api, main, shown.signal);
    else await tokensPage(api, main, render);
  } catch (err) {
    const error = errorLine();
    error.textContent = (err as Error).message;
    main.replaceChildren(h('h1', {}, 'Something went wrong'), error);
  } finally {
    main.setAttribute('aria-busy', 'false');
  }
};

document.querySelector('#sign-out')!.addEventListener('click', () => {
  clearSession();
  go('');
});
window.addEventListener('hashchange', render);
render();
