import * as z from 'zod';
import { CalendarDate } from '../dates';
import { Attributes, type CustomerFields } from '../contacts/customer';
import { CustomerInput } from '../contacts/customer-input';
import { Money } from '../crm/money';
import { MAX_MAPPED_COLUMNS, type ImportJob, type ImportKind } from './import';
import { built } from '../built';

/** The fields a column may fill, besides `attributes.<key>` (one attribute, its value the cell's text). */
const IMPORT_FIELDS = {
  customers: ['name', 'email', 'phone', 'externalId'],
  leads: ['title', 'stageId', 'customerEmail', 'valueAmount', 'valueCurrency', 'source', 'expectedCloseDate'],
} as const satisfies Record<ImportKind, readonly string[]>;

/** A request's column mapping: CSV header → field, or null to skip the column. */
export const ImportColumns = /* @__PURE__ */ built(() =>
  z
    .record(z.string().min(1).max(200), z.string().max(100).nullable())
    .refine((c) => Object.keys(c).length <= MAX_MAPPED_COLUMNS, `At most ${MAX_MAPPED_COLUMNS} columns`),
);

const ATTRIBUTE = /^attributes\.([A-Za-z][\w-]{0,63})$/;

export const isImportField = (kind: ImportKind, field: string): boolean =>
  (IMPORT_FIELDS[kind] as readonly string[]).includes(field) || ATTRIBUTE.test(field);

/** Each column's field (`null`: skipped on purpose), or why the header cannot be imported (the import fails, no row written). */
export type Layout = { fields: (string | null)[] } | { error: string };

const listed = (names: string[]) => names.map((n) => JSON.stringify(n)).join(', ');

/**
 * How a header row maps onto fields: `columns` names a header's field (or `null` to skip it), any other
 * header names its field itself. A header that maps to no field is an error, never dropped silently, as are
 * two columns filling one field, a `columns` entry naming no header, and a missing `required` field.
 */
export const layoutOf = (kind: ImportKind, header: string[], columns: ImportJob['columns'], required: string): Layout => {
  const names = header.map((h) => h.trim());
  if (names.every((n) => n === '')) return { error: 'The CSV has no header row (its first line names no column)' };
  const fields = names.map((n) => (n in columns ? columns[n]! : n));
  const unknown = names.filter((_, i) => fields[i] !== null && !isImportField(kind, fields[i]!));
  if (unknown.length) {
    return {
      error: `Unknown columns: ${listed(unknown)}. Map each to a field with \`columns\` (e.g. {"${unknown[0]}": "name"}), or to null to skip it`,
    };
  }
  const missing = Object.keys(columns).filter((c) => !names.includes(c));
  if (missing.length) return { error: `\`columns\` names headers the CSV does not have: ${listed(missing)}` };
  const repeated = fields.filter((f, i) => f !== null && fields.indexOf(f) !== i);
  if (repeated.length) return { error: `More than one column fills ${listed([...new Set(repeated as string[])])}` };
  if (!fields.includes(required)) return { error: `No column fills ${JSON.stringify(required)}, which every row needs` };
  return { fields };
};

/** A row's non-empty cells by field, its attributes gathered (an empty cell leaves its field as it is). */
const cellsByField = (fields: (string | null)[], cells: string[]) => {
  const values: Record<string, string> = {};
  const attributes: Record<string, string> = {};
  fields.forEach((field, i) => {
    const cell = cells[i] ?? '';
    if (field === null || cell === '') return;
    const attribute = ATTRIBUTE.exec(field)?.[1];
    if (attribute) attributes[attribute] = cell;
    else values[field] = cell;
  });
  return { values, attributes: Object.keys(attributes).length ? attributes : undefined };
};

/** A zod failure as a row's reason: each problem as `field: message`. */
const reasonOf = (error: z.ZodError): string =>
  error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');

export type RowInput<T> = { input: T } | { reason: string };

const fieldCount = (fields: unknown[], cells: string[]): string | undefined =>
  cells.length === fields.length ? undefined : `Expected ${fields.length} fields, found ${cells.length}`;

/** A customers row as the fields `POST /contacts/customers` would take. */
export const customerRow = (fields: (string | null)[], cells: string[]): RowInput<CustomerFields> => {
  const wrongCount = fieldCount(fields, cells);
  if (wrongCount) return { reason: wrongCount };
  const { values, attributes } = cellsByField(fields, cells);
  const parsed = CustomerInput.safeParse({ ...values, attributes });
  return parsed.success ? { input: parsed.data } : { reason: reasonOf(parsed.error) };
};

const Amount = /* @__PURE__ */ built(() =>
  z
    .string()
    .regex(/^\d{1,15}$/, 'Must be a whole number of minor units (cents)')
    .transform(Number)
    .pipe(Money.shape.amount),
);

const LeadRow = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      title: z.string().trim().min(1).max(200),
      stageId: z.string().max(64).optional(),
      customerEmail: z.email().max(320).optional(),
      valueAmount: Amount.optional(),
      valueCurrency: Money.shape.currency.optional(),
      source: z.string().trim().min(1).max(100).optional(),
      expectedCloseDate: CalendarDate.optional(),
      attributes: Attributes.optional(),
    })
    .refine((r) => (r.valueAmount === undefined) === (r.valueCurrency === undefined), {
      message: 'valueAmount and valueCurrency go together',
      path: ['valueAmount'],
    })
    .transform(({ valueAmount, valueCurrency, ...rest }) => ({
      ...rest,
      value: valueAmount === undefined ? undefined : { amount: valueAmount, currency: valueCurrency! },
    })),
);

export type LeadRowInput = z.infer<typeof LeadRow>;

/** A leads row: its lead's fields, the stage (the pipeline's first when empty) and the customer's email still to resolve. */
export const leadRow = (fields: (string | null)[], cells: string[]): RowInput<LeadRowInput> => {
  const wrongCount = fieldCount(fields, cells);
  if (wrongCount) return { reason: wrongCount };
  const { values, attributes } = cellsByField(fields, cells);
  const parsed = LeadRow.safeParse({ ...values, attributes });
  return parsed.success ? { input: parsed.data } : { reason: reasonOf(parsed.error) };
};
