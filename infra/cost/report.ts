import { ASSUMPTIONS } from './assumptions';
import { edgeLines, idleLines, total, workloadLines, type Line, type Workload } from './estimate';
import { inventoryOf, type Inventory } from './inventory';
import type { MeasuredWrites } from './measured';
import { PRICE_REGION, PRICES, PRICES_AS_OF } from './prices';
import type { StageName } from '../stage';

/** The workload the generated docs price. */
export const STANDARD_WORKLOAD: Workload = { apiCalls: 1e6, deliveries: 1e6, incomingMessages: 1e6, socketHours: 1760 };

const usd = (n: number) => `$${n.toFixed(2)}`;
const qty = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : Number(n.toPrecision(3)).toString());
const table = (lines: Line[]): string[] => [
  '| Item | Quantity | Basis | $/month |',
  '|---|---:|---|---:|',
  ...lines.map((l) => `| ${l.item} | ${qty(l.quantity)} | ${l.basis} | ${usd(l.usd)} |`),
  `| **Total** | | | **${usd(total(lines))}** |`,
];

export interface StageCost {
  inventory: Inventory;
  idle: Line[];
  edge: Line[];
}

export const stageCosts = (stages: readonly StageName[] = ['dev', 'prod']): StageCost[] =>
  stages.map((stage) => {
    const inventory = inventoryOf(stage);
    return { inventory, idle: idleLines(inventory), edge: edgeLines(inventory) };
  });

const workloadName = (w: Workload) =>
  `${qty(w.apiCalls)} API calls + ${qty(w.deliveries)} webhook deliveries + ${qty(w.incomingMessages)} incoming messages + ${qty(w.socketHours)} realtime socket-hours a month`;

/** The summary: idle cost per stage (edge apart) and the workload on top, one row per stage. */
export const summary = (costs: StageCost[], measured: MeasuredWrites, w: Workload): string[] => [
  `| Stage | Idle | Optional edge (WAF) | ${workloadName(w)}, on top of idle |`,
  '|---|---:|---:|---:|',
  ...costs.map(
    (c) =>
      `| ${c.inventory.stage} | ${usd(total(c.idle))} | ${c.edge.length ? usd(total(c.edge)) : 'off'} | ${usd(total(workloadLines(w, measured, c.inventory)))} |`,
  ),
];

/** The whole report `npm run cost` prints and docs/operations/cost.md holds. */
export const report = (costs: StageCost[], measured: MeasuredWrites, w: Workload): string[] => [
  `Prices: AWS list prices in ${PRICE_REGION} as of ${PRICES_AS_OF}, no free tier (\`infra/cost/prices.ts\`). Counts: the synthesized templates. Write units: \`npm run bench -- cost\` of ${measured.measuredOn} (\`infra/cost/measured-writes.json\`).`,
  '',
  ...summary(costs, measured, w),
  ...costs.flatMap((c) => [
    '',
    `### Idle, ${c.inventory.stage} (${c.inventory.functions} functions, ${c.inventory.queues} queues)`,
    '',
    ...table(c.idle),
    ...(c.edge.length ? ['', `Optional edge, ${c.inventory.stage}:`, '', ...table(c.edge)] : []),
  ]),
  '',
  `### ${workloadName(w)} (${costs[0]!.inventory.stage}, on top of idle)`,
  '',
  ...table(workloadLines(w, measured, costs[0]!.inventory)),
  '',
  '### Prices',
  '',
  '| Price | USD | Per |',
  '|---|---:|---|',
  ...Object.entries(PRICES).map(([name, p]) => `| ${name} | ${Number(p.usd.toPrecision(6))} | ${p.per} |`),
  '',
  '### Usage assumptions',
  '',
  ...Object.entries(ASSUMPTIONS).map(([name, value]) => `- \`${name}\`: ${value}`),
];
