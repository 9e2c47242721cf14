import { errorLine, h } from './dom';
import { ApiFailure, clientFor, saveSession, unwrap } from './session';

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * Counts down a 429's `Retry-After` in `note`, with `button` disabled until it is over (the token is refused
 * until then) or until another token is typed. Returns the way to stop it early.
 */
const waitOut = (seconds: number, note: HTMLElement, button: HTMLButtonElement): (() => void) => {
  const end = Date.now() + seconds * 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(timer);
    note.textContent = '';
    button.disabled = false;
  };
  const tick = () => {
    const left = Math.ceil((end - Date.now()) / 1000);
    if (left <= 0 || !note.isConnected) return stop();
    note.textContent = `Too many sign-ins with this token. Try again in ${clock(left)}.`;
    timer = setTimeout(tick, 1000);
  };
  button.disabled = true;
  tick();
  return stop;
};

/** Sign-in: the token is checked against the API, which also lists the workspaces it may act in; `done` shows the first page. */
export const signIn = (main: HTMLElement, done: () => void): void => {
  const token = h('input', { type: 'password', name: 'token', autocomplete: 'off', placeholder: 'sk_live_… or sk_test_…', required: true });
  const error = errorLine();
  const submit = h('button', { type: 'submit' }, 'Sign in');
  let stopWaiting = () => {};
  token.oninput = () => stopWaiting();
  const form = h(
    'form',
    {
      onsubmit: async (e: Event) => {
        e.preventDefault();
        error.textContent = '';
        submit.disabled = true;
        form.setAttribute('aria-busy', 'true');
        try {
          const { workspaces } = await unwrap<{ workspaces: { _id: string; name: string }[] }>(
            clientFor({ token: token.value }).GET('/api/v1/auth/workspaces'),
          );
          if (!workspaces[0]) throw new Error('This token has no workspace');
          saveSession({ token: token.value, workspaceId: workspaces[0]._id, workspaceName: workspaces[0].name });
          done();
        } catch (err) {
          submit.disabled = false;
          if (err instanceof ApiFailure && err.status === 429 && err.retryAfterSeconds)
            stopWaiting = waitOut(err.retryAfterSeconds, error, submit);
          else error.textContent = (err as Error).message;
        } finally {
          form.setAttribute('aria-busy', 'false');
        }
      },
    },
    h('label', {}, 'API token ', token),
    submit,
    error,
  );
  main.replaceChildren(h('h1', {}, 'Sign in'), h('section', {}, form));
};
