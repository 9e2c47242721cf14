type Child = Node | string | number | null | undefined | false;

/** `h('button', { onclick }, 'Revoke')`: an element with properties, attributes (`data-*`, `aria-*`) and children. */
export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key.startsWith('data-') || key.startsWith('aria-') || key === 'for') el.setAttribute(key, String(value));
    else (el as unknown as Record<string, unknown>)[key] = value;
  }
  for (const child of children)
    if (child !== null && child !== undefined && child !== false) el.append(typeof child === 'number' ? String(child) : child);
  return el;
};

/** A table whose cells carry their column's name, so a narrow screen shows each row as a labelled card. */
export const table = (headings: string[], rows: Child[][]): HTMLTableElement =>
  h('table', {}, h('thead', {}, h('tr', {}, ...headings.map((t) => h('th', {}, t)))), h('tbody', {}, ...rows.map((r) => row(headings, r))));

export const row = (headings: string[], cells: Child[]): HTMLTableRowElement =>
  h('tr', {}, ...cells.map((c, i) => h('td', { 'data-label': headings[i] ?? '' }, c)));

export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');

export const status = (value: string, label = value): HTMLSpanElement => h('span', { className: `status status-${value}` }, label);

/** What a page shows while its data loads. */
export const busy = (what = 'Loading…'): HTMLParagraphElement => h('p', { className: 'busy', role: 'status' }, what);

/** What a list shows when it has nothing in it: what it would hold, and how to get some. */
export const empty = (text: string): HTMLParagraphElement => h('p', { className: 'empty' }, text);

/** A JSON value as readable, wrapped text. */
export const json = (value: unknown): HTMLPreElement =>
  h('pre', { className: 'json' }, value === undefined ? '—' : JSON.stringify(value, null, 2));

/** A labelled list of facts: `[['Status', 'failed'], …]`. */
export const facts = (pairs: [string, Child][]): HTMLDListElement =>
  h('dl', { className: 'facts' }, ...pairs.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));

export const errorLine = (): HTMLParagraphElement => h('p', { className: 'error', role: 'alert' });

/**
 * A button that runs `task` once per click: disabled and marked busy while it runs, its failure shown in
 * `error`.
 */
export const actionButton = (
  label: string,
  error: HTMLElement,
  task: () => Promise<void>,
  props: Record<string, unknown> = {},
): HTMLButtonElement => {
  const button: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      ...props,
      onclick: async () => {
        error.textContent = '';
        button.disabled = true;
        button.setAttribute('aria-busy', 'true');
        try {
          await task();
        } catch (err) {
          error.textContent = (err as Error).message;
        } finally {
          button.disabled = false;
          button.setAttribute('aria-busy', 'false');
        }
      },
    },
    label,
  );
  return button;
};

/** A form's submit, with the same busy and error handling as `actionButton`. */
export const onSubmit = (error: HTMLElement, task: (form: HTMLFormElement) => Promise<void>) => async (e: Event) => {
  e.preventDefault();
  const form = e.currentTarget as HTMLFormElement;
  const submit = form.querySelector<HTMLButtonElement>('button[type=submit]');
  error.textContent = '';
  if (submit) submit.disabled = true;
  form.setAttribute('aria-busy', 'true');
  try {
    await task(form);
  } catch (err) {
    error.textContent = (err as Error).message;
  } finally {
    if (submit) submit.disabled = false;
    form.setAttribute('aria-busy', 'false');
  }
};

/** The value shown once (a token, a signing secret): copyable, and gone when dismissed or on the next visit. */
export const showOnce = (slot: Element, title: string, secret: string, id: string): void => {
  const copied = h('span', { role: 'status' });
  slot.replaceChildren(
    h(
      'section',
      { className: 'once' },
      h('h2', {}, title),
      h('p', {}, 'Copy it now: it is shown only this once and cannot be recovered.'),
      h('div', { className: 'secret', id }, secret),
      h(
        'button',
        {
          type: 'button',
          onclick: async () => {
            await navigator.clipboard.writeText(secret);
            copied.textContent = ' Copied.';
          },
        },
        'Copy',
      ),
      copied,
      h('button', { type: 'button', onclick: () => slot.replaceChildren() }, 'Done'),
    ),
  );
};
