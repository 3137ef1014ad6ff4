import { describe, expect, it } from 'vitest';
import { OutboxScheduler } from './scheduler';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('OutboxScheduler', () => {
  it('pushes on a kick, folds kicks during a push into one more, and re-arms for the next retry', async () => {
    let pushes = 0;
    let due: string | null = null;
    let release: () => void = () => {};
    const scheduler = new OutboxScheduler({
      push: () => {
        pushes += 1;
        return new Promise<void>((resolve) => (release = resolve));
      },
      nextDue: () => due,
    });
    scheduler.kick();
    scheduler.kick();
    scheduler.kick();
    expect(pushes).toBe(1);
    release();
    await tick(10);
    expect(pushes).toBe(2); // the kicks during the first push: one more
    due = new Date(Date.now() + 50).toISOString();
    release();
    await tick(10);
    expect(pushes).toBe(2);
    due = null;
    await tick(100); // the retry time came: pushed again without a kick
    expect(pushes).toBe(3);
    release();
    await scheduler.idle();
    scheduler.stop();
    scheduler.kick();
    expect(pushes).toBe(3);
  });

  it('keeps going after a push that threw', async () => {
    const errors: unknown[] = [];
    let pushes = 0;
    const scheduler = new OutboxScheduler({
      push: async () => {
        pushes += 1;
        if (pushes === 1) throw new Error('boom');
      },
      nextDue: () => null,
      onError: (error) => errors.push(error),
    });
    scheduler.kick();
    await scheduler.idle();
    scheduler.kick();
    await scheduler.idle();
    expect(pushes).toBe(2);
    expect(errors).toHaveLength(1);
    scheduler.stop();
  });
});
