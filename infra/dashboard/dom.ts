/// <reference lib="dom" />

type Child = Node | string | number | null | undefined | false;

/** `h('button', { onclick }, 'Revoke')`: an element with properties, attributes (`data-*`, `aria-*`) and children. */
export const h = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, unknown> = {}, ...children: Child[]): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key.startsWith('data-') || key.startsWith('aria-') || key === 'for') el.setAttribute(key, String(value));
    else (el as unknown as Record<string, unknown>)[key] = value;
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(typeof child === 'number' ? String(child) : child);
  return el;
};

export const table = (headings: string[], rows: Child[][]): HTMLTableElement =>
  h('table', {}, h('thead', {}, h('tr', {}, ...headings.map((t) => h('th', {}, t)))), h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c))))));

export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');

export const status = (value: string): HTMLSpanElement => h('span', { className: `status-${value}` }, value);
