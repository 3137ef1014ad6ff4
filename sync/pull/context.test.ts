// The pull's two concurrency helpers: nothing they started may outlive the collection.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { forEachLimited, prefetched } from './context';

describe('forEachLimited', () => {
  it('starts no further item after a failure, waits for those under way, and throws the first failure', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const items = Array.from({ length: 20 }, (_, i) => i);
    const run = forEachLimited(items, 3, async (item) => {
      started.push(item);
      await sleep(item === 2 ? 1 : 20);
      if (item === 2) throw new Error('item 2 failed');
      finished.push(item);
    });
    await expect(run).rejects.toThrow('item 2 failed');
    expect(started.length).toBeLessThan(6);
    // Everything started and not failed had finished before the failure was thrown.
    expect(finished.sort()).toEqual(started.filter((item) => item !== 2).sort());
  });
});

describe('prefetched', () => {
  it('aborts and awaits the fetches ahead when the consumer stops early', async () => {
    const settled: number[] = [];
    const aborted: number[] = [];
    const fetch = (item: number, signal: AbortSignal) =>
      new Promise<number>((resolve, reject) => {
        const onAbort = () => {
          clearTimeout(timer);
          aborted.push(item);
          settled.push(item);
          reject(new Error('aborted'));
        };
        const timer = setTimeout(
          () => {
            signal.removeEventListener('abort', onAbort);
            settled.push(item);
            resolve(item);
          },
          50 * (item + 1),
        );
        signal.addEventListener('abort', onAbort);
      });
    const consume = async () => {
      for await (const value of prefetched([0, 1, 2, 3, 4], 3, undefined, fetch)) {
        if (value === 0) throw new Error('applying the first answer failed');
      }
    };
    await expect(consume()).rejects.toThrow('applying the first answer failed');
    // Items 1 to 3 were fetched ahead; by the time the loop has failed they are stopped and done.
    expect(aborted.sort()).toEqual([1, 2, 3]);
    expect(settled.sort()).toEqual([0, 1, 2, 3]);
  });

  it('passes the caller’s cancellation on to every fetch', async () => {
    const caller = new AbortController();
    const signals: AbortSignal[] = [];
    const values: number[] = [];
    for await (const value of prefetched([1, 2], 2, caller.signal, async (item, signal) => {
      signals.push(signal);
      return item;
    })) {
      values.push(value);
    }
    caller.abort();
    expect(values).toEqual([1, 2]);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });
});
