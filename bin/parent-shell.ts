// `npx vorort …` (and any npm script) runs the command through `sh -c`. npm passes a SIGINT or
// SIGTERM sent to its own pid on to that shell, not to us. Where /bin/sh is dash (Debian, Ubuntu)
// the shell holds a SIGINT until its child (this process) has ended, so `kill -INT <pid of npx>`
// would never stop the sandbox or a sync; a SIGTERM ends the shell and leaves this process
// running on its own. So, only when run by npm through a shell on Linux, this process watches its
// parent: the shell waking up (it sleeps until a signal or our exit) is a SIGINT for us too, and
// the shell gone is a SIGTERM. (`npm start` runs `exec node …`: no shell in between.)
import { readFileSync } from 'node:fs';

const POLL_MS = 200;

export function watchParentShell(): void {
  if (process.platform !== 'linux' || !process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const shell = readProc(`/proc/${parent}/comm`)?.trim();
  if (shell !== 'sh' && shell !== 'dash') return;
  let wakeUps = voluntarySwitches(parent);
  if (wakeUps === undefined) return;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      process.kill(process.pid, 'SIGTERM');
      return;
    }
    const now = voluntarySwitches(parent);
    if (now !== undefined && now !== wakeUps) {
      wakeUps = now;
      process.kill(process.pid, 'SIGINT');
    }
  }, POLL_MS);
  timer.unref();
}

function voluntarySwitches(pid: number): number | undefined {
  const status = readProc(`/proc/${pid}/status`);
  const match = status?.match(/^voluntary_ctxt_switches:\s+(\d+)/m);
  return match ? Number(match[1]) : undefined;
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
