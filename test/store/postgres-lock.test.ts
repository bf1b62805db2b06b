/**
 * The back-off of a delivery waiting for a PostgreSQL OrderId lock (lib/store/postgres-lock.ts),
 * without a database: how often a waiter polls is what bounds the load a held lock puts on the
 * database, so the pauses are checked as numbers here (never as timings).
 */
import { FIRST_POLL_DELAY_MS, MAX_POLL_DELAY_MS, nextPollDelay, pollPause } from '../../lib/store/postgres-lock.js';

describe('PostgreSQL lock back-off', () => {
  it('pauses between one and two times the current delay (jitter), so waiters do not poll in step', () => {
    expect(pollPause(10, 1_000, 0)).toBe(10);
    expect(pollPause(10, 1_000, 0.5)).toBe(15);
    expect(pollPause(10, 1_000, 0.999)).toBeCloseTo(19.99);
    for (let i = 0; i < 200; i++) {
      const pause = pollPause(20, 1_000);
      expect(pause).toBeGreaterThanOrEqual(20);
      expect(pause).toBeLessThan(40);
    }
  });

  it('never sleeps past the deadline', () => {
    expect(pollPause(40, 3, 0.5)).toBe(3);
    expect(pollPause(40, 0, 0)).toBe(0);
  });

  it('doubles the delay after each poll, from 5 ms up to 400 ms, and stays there', () => {
    const delays = [FIRST_POLL_DELAY_MS];
    for (let i = 0; i < 9; i++) delays.push(nextPollDelay(delays[delays.length - 1]));
    expect(delays).toEqual([5, 10, 20, 40, 80, 160, 320, 400, 400, 400]);
    expect(MAX_POLL_DELAY_MS).toBe(400);
  });

  it('polls a held lock at most 2.5 times a second once the back-off has grown: a 10 s wait costs at most 32 claim statements (the audit saw 136)', () => {
    // A waiter of ten seconds: count the claim statements the pauses allow (each pause at its shortest).
    let delay = FIRST_POLL_DELAY_MS;
    let left = 10_000;
    let polls = 0;
    while (left > 0) {
      polls++;
      left -= pollPause(delay, left, 0);
      delay = nextPollDelay(delay);
    }
    expect(polls).toBeLessThanOrEqual(32);
    expect(polls).toBeGreaterThanOrEqual(25);
  });
});
