import { NotFoundError } from '../domain/errors';
import {
  executionsPage,
  executionView,
  getExecution,
  listSteps,
  type ExecutionFilter,
  type StoredExecution,
} from '../data/workflow-executions';
import type { PageRequest } from '../data/query';
import type { Tenant } from '../domain/auth/tenant';

export const listExecutions = (tenant: Tenant, filter: ExecutionFilter, page: PageRequest) => executionsPage(tenant, filter, page);

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
