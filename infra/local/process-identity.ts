import { existsSync, readFileSync } from 'node:fs';

/** A process as the kernel names it: its PID, and (on Linux) when it started, which a reused PID does not share. */
export interface ProcessIdentity {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot); absent where there is no /proc. */
  startTime?: string;
}

type Stat = { state: string; startTime: string } | 'no-proc' | undefined;

/** The state and start time of `pid` from /proc (the name in parentheses may hold spaces, so fields count from its end). */
const statOf = (pid: number): Stat => {
  if (!existsSync('/proc/self/stat')) return 'no-proc';
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, startTime: fields[19]! };
  } catch {
    return undefined;
  }
};

const signalable = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export const ownIdentity = (): ProcessIdentity => {
  const stat = statOf(process.pid);
  return typeof stat === 'object' ? { pid: process.pid, startTime: stat.startTime } : { pid: process.pid };
};

/**
 * Whether the process `identity` names still runs. A zombie (state Z: killed, not yet reaped, which
 * `kill(pid, 0)` still reaches) or a dead task (X) does not, nor does another process that was given the same
 * PID since (another start time). Without /proc, only whether the PID can be signalled.
 */
export const isAlive = (identity: ProcessIdentity): boolean => {
  const stat = statOf(identity.pid);
  if (stat === 'no-proc') return signalable(identity.pid);
  if (!stat || stat.state === 'Z' || stat.state === 'X') return false;
  return identity.startTime === undefined || identity.startTime === stat.startTime;
};
