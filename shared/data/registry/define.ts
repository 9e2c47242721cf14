import type { IndexName } from '../table';

/** The key attributes of an item: the table's own and each global secondary index's. */
export type KeyAttribute = 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk';

/** One read the code makes: what it reads, the key condition it reads by, and on which index. */
interface AccessPattern {
  read: string;
  by: string;
  index?: IndexName;
}

/**
 * One kind of stored item. `prefixes` are the literal key segments it declares (each declared by exactly
 * one entity, though others may share its partition); `keys` shows the shape of each key attribute, where
 * `<tenant>` stands for `WS#<tenant>` (see `tenantPk`) and `<…>` for a value.
 */
export interface Entity<P extends string = string> {
  name: string;
  about: string;
  prefixes: readonly P[];
  keys: Partial<Record<KeyAttribute, string>>;
  patterns: readonly AccessPattern[];
  /** A design choice the keys alone do not explain: what it costs and what it buys. */
  tradeOff?: string;
}

export const entity = <const P extends string>(e: Entity<P>): Entity<P> => e;
