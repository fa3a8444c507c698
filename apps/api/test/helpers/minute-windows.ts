import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The allowances count whole minutes of the clock (batched-limit.ts): a burst that starts late in one minute can
 * cross into the next and find its count back at zero. A test whose calls must fall in one window starts them
 * with at least `roomMs` of the minute left, waiting for the next minute when less is left.
 */
export async function withRoomInTheMinute(roomMs = 20_000): Promise<void> {
  const intoMinuteMs = Date.now() % 60_000;
  if (intoMinuteMs > 60_000 - roomMs) await sleep(60_000 - intoMinuteMs + 100);
}
