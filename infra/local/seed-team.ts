import { addMember, mutateMember } from '../../shared/workspace/members';
import { createBooking, transitionBooking } from '../../shared/scheduling/bookings';
import { acceptInvite } from '../../shared/domain/auth/member';
import { confirm } from '../../shared/domain/scheduling/booking';
import type { Tenant } from '../../shared/domain/auth/tenant';
import { direct } from '../../shared/data/unit';

/** The demo team: an active owner, a manager and an agent, and an invitation still open. Returns the agent's id. */
export const seedMembers = async (tenant: Tenant): Promise<{ agentId: string }> => {
  const now = () => new Date();
  await addMember(direct, tenant, { email: 'owner@example.com', name: 'Olivia Owner', role: 'owner' }, now(), 'active');
  await addMember(direct, tenant, { email: 'manager@example.com', name: 'Max Manager', role: 'manager' }, now(), 'active');
  const agent = await addMember(direct, tenant, { email: 'agent@example.com', name: 'Alex Agent', role: 'agent' }, now());
  await mutateMember(direct, tenant, agent._id, (m) => acceptInvite(m, now()), now());
  await addMember(direct, tenant, { email: 'new.hire@example.com', name: 'Nia New', role: 'agent' }, now());
  return { agentId: agent._id };
};

/** The next weekday (Monday to Friday) after today, at `hour`:00 UTC (inside the default business hours). */
const nextWeekdayAt = (days: number, hour: number) => {
  const d = new Date();
  d.setUTCHours(hour, 0, 0, 0);
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d;
};

/** Two demo bookings with the agent in the coming weekdays, one confirmed, so availability shows them. */
export const seedBookings = async (tenant: Tenant, agentId: string, customerId: string): Promise<void> => {
  const now = () => new Date();
  const book = (title: string, start: Date, minutes: number) =>
    createBooking(
      direct,
      tenant,
      {
        title,
        customerId,
        assigneeId: agentId,
        startAt: start.toISOString(),
        endAt: new Date(start.getTime() + minutes * 60_000).toISOString(),
        timezone: 'UTC',
        location: 'https://meet.example.com/demo',
      },
      now(),
    );
  const demo = await book('Product demo', nextWeekdayAt(1, 10), 30);
  await transitionBooking(direct, tenant, demo._id, (b) => confirm(b, now()), now());
  await book('Onboarding call', nextWeekdayAt(2, 14), 60);
};
