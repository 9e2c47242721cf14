import { normalizeEmail } from '../contacts/customer';
import { EXPORT_FORMATS } from '../exports/export';

/** What marks a CSV row as the customer's: its id, its email (case folded) and its phone, as they were before the erasure. */
export interface ErasedCustomer {
  id: string;
  email: string | null;
  phone: string | null;
}

/** A cell's value as written, without the `'` an export puts before a cell a spreadsheet would run (`'+44…`). */
const plain = (cell: string) => cell.trim().replace(/^'(?=[=+\-@\t\r])/, '');

/** Whether a cell holds the customer's id, email or phone, whole. */
export const namesCustomer = (who: ErasedCustomer) => {
  const needles = new Set([who.id, ...(who.email ? [normalizeEmail(who.email)] : []), ...(who.phone ? [who.phone] : [])]);
  return (cell: string): boolean => {
    const value = plain(cell);
    return value !== '' && (needles.has(value) || needles.has(normalizeEmail(value)));
  };
};

/**
 * What the erasure does to one CSV record: `keep` it as it is, `drop` it (a customers export's row about
 * the customer: the export no longer lists it), or `replace` it (an import's row keeps its place, every cell
 * emptied, so a running import's cursor still counts records in file order; a leads export's row keeps the
 * lead, the cells naming the customer emptied, as the leads step clears the link).
 */
export type RowFate = { keep: true } | { drop: true } | { replace: string[] };

export type BulkCsvKind = 'export' | 'import';

const sameColumns = (header: readonly string[], columns: readonly string[]) =>
  header.length === columns.length && header.every((h, i) => h === columns[i]);

/**
 * The rule for a bulk CSV's records, from where it lives and its header. An export whose header is not a
 * leads export's is treated as a customers export (its rows about the customer are dropped whole).
 */
export const rowFates = (kind: BulkCsvKind, header: readonly string[], who: ErasedCustomer) => {
  const names = namesCustomer(who);
  const leads = kind === 'export' && sameColumns(header, EXPORT_FORMATS.leads.columns);
  return (cells: string[]): RowFate => {
    if (!cells.some(names)) return { keep: true };
    if (kind === 'import') return { replace: cells.map(() => '') };
    if (leads) return { replace: cells.map((cell) => (names(cell) ? '' : cell)) };
    return { drop: true };
  };
};

/** A failed import row once its customer is erased: its line stays (the import did fail there), its cells and reason go. */
export const ERASED_FAILURE_REASON = 'Erased: this row named a customer whose personal data was erased';
