// Shortens a sequence that ends in a divergence to one that still shows a divergence, by
// leaving out chunks of steps and replaying from a fresh service (delta debugging, bounded by
// tries and wall-clock time). Syncs are steps like the others: one left out may matter.
import type { Step } from './steps';

export interface ShrinkOptions {
  /** Replays a candidate; true when it still ends in (or shows on the way) a divergence. */
  fails: (steps: readonly Step[]) => Promise<boolean>;
  maxTries?: number;
  wallClockMs?: number;
  log?: (line: string) => void;
}

export async function shrink(sequence: readonly Step[], options: ShrinkOptions): Promise<Step[]> {
  const started = Date.now();
  const maxTries = options.maxTries ?? 60;
  const wallClockMs = options.wallClockMs ?? 3 * 60_000;
  let current = [...sequence];
  let chunks = 2;
  let tries = 0;
  const exhausted = () => tries >= maxTries || Date.now() - started > wallClockMs;
  while (current.length > 1 && !exhausted()) {
    const size = Math.ceil(current.length / chunks);
    let shortened = false;
    for (let start = 0; start < current.length && !exhausted(); start += size) {
      // The last step is the sync that showed the divergence: it stays.
      const end = Math.min(start + size, current.length - 1);
      if (end <= start) continue;
      const candidate = [...current.slice(0, start), ...current.slice(end)];
      tries += 1;
      if (await options.fails(candidate)) {
        current = candidate;
        chunks = Math.max(chunks - 1, 2);
        shortened = true;
        options.log?.(`shortened to ${current.length} steps`);
        break;
      }
    }
    if (!shortened) {
      if (size <= 1) break;
      chunks = Math.min(chunks * 2, current.length);
    }
  }
  return current;
}
