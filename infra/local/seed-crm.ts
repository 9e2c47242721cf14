import { addActivity } from '../../shared/crm/activities';
import { createLead, moveLeadToStage } from '../../shared/crm/leads';
import { createPipeline } from '../../shared/crm/pipelines';
import { createTask } from '../../shared/crm/tasks';
import type { Tenant } from '../../shared/domain/auth/tenant';
import { direct } from '../../shared/data/unit';

/** A default pipeline with a few leads across its stages, a task and a note, so `GET /api/v1/crm/leads` shows something on a first start. */
export const seedCrm = async (tenant: Tenant, customerId: string, agentId: string): Promise<void> => {
  const now = () => new Date();
  const pipeline = await createPipeline(direct, tenant, { name: 'Sales' }, now());
  const stage = (name: string) => pipeline.stages.find((s) => s.name === name)!._id;
  const lead = (title: string, amount: number, extra: Record<string, unknown> = {}) =>
    createLead(direct, tenant, { title, pipelineId: pipeline._id, value: { amount, currency: 'USD' }, ...extra }, now());

  const enterprise = await lead('Enterprise plan, 50 seats', 2_400_000, { customerId, assigneeId: agentId, source: 'website' });
  await moveLeadToStage(direct, tenant, enterprise._id, { stageId: stage('Qualified') }, now());
  await moveLeadToStage(direct, tenant, enterprise._id, { stageId: stage('Proposal') }, now());
  await addActivity(
    direct,
    tenant,
    { type: 'call', leadId: enterprise._id, subject: 'Discovery call', body: 'Needs SSO and an EU region.', durationSeconds: 1800 },
    now(),
  );
  await createTask(
    direct,
    tenant,
    {
      title: 'Send the security questionnaire',
      leadId: enterprise._id,
      priority: 'high',
      dueAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
      assigneeId: agentId,
    },
    now(),
  );

  await lead('Starter plan', 49_00, { source: 'referral' });
  const won = await lead('Team plan, annual', 588_00, { customerId });
  await moveLeadToStage(direct, tenant, won._id, { stageId: stage('Won') }, now());
  const lost = await lead('Pilot for the support team', 1_200_00);
  await moveLeadToStage(direct, tenant, lost._id, { stageId: stage('Lost'), lostReason: 'No budget this quarter' }, now());
};
