import type { Tenant } from '../domain/auth/tenant';
import { log } from '../log';

export interface DueEntry {
  tenant: Tenant;
  id: string;
}

/**
 * One run of a timer over a cross-tenant due index: reads what is due in batches and acts on each entry,
 * one at a time. `act` says whether it did something; an entry that fails is logged and left for the next
 * run. A short batch is the last; a batch where nothing happened would only repeat itself, so it ends too.
 */
export const drainDue = async (
  name: string,
  due: (limit: number) => Promise<DueEntry[]>,
  act: (entry: DueEntry) => Promise<boolean>,
  batchSize = 100,
): Promise<number> => {
  let done = 0;
  for (;;) {
    const entries = await due(batchSize);
    let batch = 0;
    for (const entry of entries) {
      const acted = await act(entry).catch((error: unknown) => {
        log.error(`${name} failed`, { tenant: entry.tenant, id: entry.id, error: String(error) });
        return false;
      });
      if (acted) batch++;
    }
    done += batch;
    if (entries.length < batchSize || batch === 0) break;
  }
  if (done > 0) log.info(`${name} done`, { count: done });
  return done;
};
