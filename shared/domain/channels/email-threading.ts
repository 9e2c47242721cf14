/** `<key@domain-of-from>`: the same key always makes the same Message-ID. */
export const emailMessageId = (key: string, from: string): string => `<${key}@${from.split('@')[1] ?? 'parley.local'}>`;

/** The ids inside a Message-ID, In-Reply-To or References header value, angle brackets kept. */
export const messageIdsIn = (header: string | string[] | undefined): string[] => {
  const values = Array.isArray(header) ? header : header ? [header] : [];
  return values.flatMap((v) => v.match(/<[^<>\s]+>/g) ?? []);
};
