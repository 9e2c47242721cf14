import { Command } from 'commander';
import { readMeasured } from './measured';
import { report, stageCosts, STANDARD_WORKLOAD } from './report';

/** `npm run cost [-- --api-calls 1e6 --deliveries 1e6 --incoming-messages 1e6 --socket-hours 1760]`: idle cost per stage and the cost of a workload, from the templates and the bench. */
const count = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`not a count: ${value}`);
  return n;
};
const options = new Command('cost')
  .option('--api-calls <n>', 'API calls a month', count, STANDARD_WORKLOAD.apiCalls)
  .option('--deliveries <n>', 'webhook deliveries a month', count, STANDARD_WORKLOAD.deliveries)
  .option('--incoming-messages <n>', "customers' incoming messages a month", count, STANDARD_WORKLOAD.incomingMessages)
  .option('--socket-hours <n>', 'hours realtime sockets are connected a month, summed over sockets', count, STANDARD_WORKLOAD.socketHours)
  .parse()
  .opts<{ apiCalls: number; deliveries: number; incomingMessages: number; socketHours: number }>();
process.stdout.write(`${report(stageCosts(), readMeasured(), options).join('\n')}\n`);
