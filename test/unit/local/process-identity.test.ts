import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isAlive, ownIdentity } from '../../../infra/local/process-identity';

const state = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0];

describe("a lock holder's liveness", () => {
  it('is this process by its PID and start time, and not a process that got the same PID later', () => {
    const me = ownIdentity();
    expect(me.startTime).toMatch(/^\d+$/);
    expect(isAlive(me)).toBe(true);
    expect(isAlive({ pid: me.pid, startTime: String(Number(me.startTime) + 1) })).toBe(false);
  });

  it('is not a process that exited, nor a zombie no one has reaped, though kill(pid, 0) still reaches it', async () => {
    const gone = spawnSync('true').pid;
    expect(isAlive({ pid: gone })).toBe(false);
    // `sleep` never reaps: the child `sleep 0.2` it inherits from sh stays a zombie until `sleep` ends.
    const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const zombie = Number(await new Promise<string>((r) => parent.stdout.once('data', (d: Buffer) => r(d.toString()))));
    await expect.poll(() => state(zombie)).toBe('Z');
    expect(() => process.kill(zombie, 0)).not.toThrow();
    expect(isAlive({ pid: zombie })).toBe(false);
    parent.kill('SIGKILL');
  });
});
