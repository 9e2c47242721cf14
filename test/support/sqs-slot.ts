import { startSqsLocal } from '../../infra/local/sqs';

/**
 * A worker slot's SQS emulator (`slots.ts` starts it in a process of its own): prints its endpoint, then serves
 * until its parent closes its stdin, which happens when the parent exits for any reason.
 */
const sqs = await startSqsLocal();
process.stdout.write(`${sqs.endpoint}\n`);
process.stdin.on('end', () => void sqs.stop().then(() => process.exit(0)));
process.stdin.resume();
