import { NotFoundError } from '../domain/errors';
import { executionView, getExecution, listSteps, type StoredExecution } from '../data/workflow-executions';
import type { Tenant } from '../domain/auth/tenant';

export { listExecutions } from '../data/workflow-executions';

export const requireExecution = async (tenant: Tenant, id: string): Promise<StoredExecution> => {
  const e = await getExecution(tenant, id);
  if (!e) throw new NotFoundError('Execution');
  return e;
};

/** The execution with every step attempt, in order. */
export const executionDetail = async (tenant: Tenant, id: string) => {
  const e = await requireExecution(tenant, id);
  return { ...executionView(e), steps: await listSteps(e) };
};
