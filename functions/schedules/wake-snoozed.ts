import { wakeDueSnoozed } from '../../shared/inbox/snoozes';
import { scheduled } from '../../shared/observability/invocation';
import { direct } from '../../shared/data/unit';

/** Every minute: opens the snoozed conversations whose time has come. */
export const handler = scheduled(async (): Promise<{ woken: number }> => ({ woken: await wakeDueSnoozed(direct, new Date()) }));
