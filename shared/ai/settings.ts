import type { Tenant } from '../domain/auth/tenant';
import { applySettings, type AiSettings, type UpdateSettings } from '../domain/ai/settings';
import { aiSettingsWrite, readAiSettings } from '../data/ai-settings';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Unit } from '../data/unit';

export const getAiSettings = async (tenant: Tenant): Promise<AiSettings> => (await readAiSettings(tenant)).settings;

/** A PATCH that changes nothing writes nothing. */
export const updateAiSettings = (unit: Unit, tenant: Tenant, input: UpdateSettings, now: Date): Promise<AiSettings> =>
  retryOnConflict(async () => {
    const current = await readAiSettings(tenant);
    const { settings, changed } = applySettings(current.settings, input, now);
    if (changed) await unit.commit([aiSettingsWrite(tenant, settings, current.version)], lostRace);
    return changed ? settings : current.settings;
  });
