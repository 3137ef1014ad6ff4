// `npx vorort …` (and any npm script) runs the command through `sh -c`. npm passes a SIGINT or
// SIGTERM sent to its own pid on to that shell, not to us. Where /bin/sh is dash (Debian, Ubuntu)
// the shell holds a SIGINT until its child (this process) has ended, so `kill -INT <pid of npx>`
// would never stop the sandbox or a sync; a SIGTERM ends the shell and leaves this process
// running on its own. So, only when run by npm through a shell on Linux, this process watches its
// parent: the shell gone is a SIGTERM for us, and the shell woken up (it sleeps in wait() until
// a signal or our exit) is a SIGINT for us, unless a stop explains the wake-up: the shell stopped
// and continued (`kill -STOP`/`-CONT`), or this process too (Ctrl+Z, then `fg` or `bg`: the
// shell also hears our stop and our continue as SIGCHLD). A stop shorter than one look
// (STOP and CONT within POLL_MS) cannot be told from a SIGINT: /proc keeps no trace of it.
import { readFileSync } from 'node:fs';

const POLL_MS = 100;

/** What /proc says of a process: whether it is stopped, and how often it went to sleep. */
interface ProcessLook {
  stopped: boolean;
  wakeUps: number;
}

export function watchParentShell(): void {
  if (process.platform !== 'linux' || !process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const shell = readProc(`/proc/${parent}/comm`)?.trim();
  if (shell !== 'sh' && shell !== 'dash') return;
  const first = look(parent);
  if (first === undefined) return;
  let wakeUps = first.wakeUps;
  /** When the parent's count last matched (ms, monotonic); a continue of ours after it explains a wake-up. */
  let quietSince = performance.now();
  let stopSeen = first.stopped;
  /** A wake-up was seen and waits one look: our SIGCONT, dispatched after overdue timers, may explain it. */
  let wakeUpSeen = false;
  let continuedAt = -Infinity;
  const onContinue = () => {
    continuedAt = performance.now();
  };
  process.on('SIGCONT', onContinue);

  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      process.off('SIGCONT', onContinue);
      process.kill(process.pid, 'SIGTERM');
      return;
    }
    const now = look(parent);
    if (now === undefined) return;
    if (now.stopped) {
      stopSeen = true;
      return;
    }
    if (now.wakeUps === wakeUps) {
      quietSince = performance.now();
      return;
    }
    if (!wakeUpSeen) {
      wakeUpSeen = true;
      return;
    }
    const explained = stopSeen || continuedAt >= quietSince;
    wakeUps = now.wakeUps;
    wakeUpSeen = false;
    stopSeen = false;
    quietSince = performance.now();
    if (!explained) process.kill(process.pid, 'SIGINT');
  }, POLL_MS);
  timer.unref();
}

function look(pid: number): ProcessLook | undefined {
  const status = readProc(`/proc/${pid}/status`);
  const state = status?.match(/^State:\s+(\S)/m)?.[1];
  const switches = status?.match(/^voluntary_ctxt_switches:\s+(\d+)/m)?.[1];
  if (state === undefined || switches === undefined) return undefined;
  // T: stopped by a signal; t: stopped by a debugger.
  return { stopped: state === 'T' || state === 't', wakeUps: Number(switches) };
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
