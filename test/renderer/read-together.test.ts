// Reads asked together answer together (renderer/data.ts readTogether): the answers a screen asked
// for in one task settle in one task, so it renders and paints once; none waits for long.
import { describe, expect, it } from 'vitest';
import { readTogether, TOGETHER_MS } from '../../renderer/data';

/** A promise answered when the test says so. */
function later<T>() {
  let answer!: (value: T) => void;
  let refuse!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    answer = resolve;
    refuse = reject;
  });
  return { promise, answer, refuse };
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('readTogether', () => {
  it('holds an answer until the others asked in the same task came, then settles all at once', async () => {
    const list = later<string>();
    const totals = later<string>();
    const settled: string[] = [];
    void readTogether(list.promise).then((value) => settled.push(value));
    void readTogether(totals.promise).then((value) => settled.push(value));
    list.answer('list');
    await nextTask();
    expect(settled).toEqual([]);
    totals.answer('totals');
    await Promise.resolve();
    await Promise.resolve();
    await Promise.resolve();
    // Both in the same task: no timer (a task) had to run between the second answer and them.
    expect(settled).toEqual(['list', 'totals']);
  });

  it('does not hold reads asked in another task', async () => {
    const first = later<string>();
    const settled: string[] = [];
    void readTogether(first.promise).then((value) => settled.push(value));
    await nextTask();
    const second = later<string>();
    void readTogether(second.promise).then((value) => settled.push(value));
    second.answer('second');
    await nextTask();
    expect(settled).toEqual(['second']);
    first.answer('first');
    await nextTask();
    expect(settled).toEqual(['second', 'first']);
  });

  it('lets an answer go after TOGETHER_MS when another of its task never answers', async () => {
    const stuck = later<string>();
    const quick = later<string>();
    const settled: string[] = [];
    void readTogether(stuck.promise).then((value) => settled.push(value));
    const asked = performance.now();
    const shown = readTogether(quick.promise).then((value) => {
      settled.push(value);
      return performance.now() - asked;
    });
    quick.answer('quick');
    const waited = await shown;
    expect(settled).toEqual(['quick']);
    expect(waited).toBeGreaterThanOrEqual(TOGETHER_MS - 5);
    expect(waited).toBeLessThan(TOGETHER_MS * 20);
  });

  it('holds a refusal like an answer and rejects with it', async () => {
    const refused = later<string>();
    const answered = later<string>();
    const outcomes: string[] = [];
    const first = readTogether(refused.promise).catch((error: Error) => {
      outcomes.push(`refused: ${error.message}`);
    });
    const second = readTogether(answered.promise).then((value) => {
      outcomes.push(value);
    });
    refused.refuse(new Error('offline'));
    await nextTask();
    expect(outcomes).toEqual([]);
    answered.answer('answered');
    await Promise.all([first, second]);
    expect(outcomes).toEqual(['refused: offline', 'answered']);
  });
});
