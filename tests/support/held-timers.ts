/**
 * Forces, in a page, the order of events a quiet machine gives: AG Grid hands a click's
 * `cellFocused` and `cellClicked` to the grid's callbacks in a zero-delay timer after the click,
 * and Chromium runs input (the next key) before timers when it has both waiting, so on a quiet
 * machine a key typed right after a click is handled before the click's callbacks; under load the
 * timer wins. Holding back the page's zero-delay timers makes that order certain whatever the load.
 */
import type { Page } from 'playwright-core';

// What runs in the page (this tsconfig has no DOM library).
declare const window: Record<string, unknown>;

type Timer = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => number;

/** From now on the page's zero-delay timers wait until `releaseTimers`; others run as they would. */
export function holdTimers(page: Page): Promise<void> {
  return page.evaluate(() => {
    const real = window['setTimeout'] as Timer;
    const held: Array<() => void> = [];
    window['__heldTimers'] = { real, held };
    window['setTimeout'] = ((fn, ms, ...args) => {
      if (ms) return real(fn, ms, ...args);
      held.push(() => fn(...args));
      return 0;
    }) as Timer;
  });
}

/** The page's timers back to normal; the held ones run now, in order. Answers how many were held. */
export function releaseTimers(page: Page): Promise<number> {
  return page.evaluate(() => {
    const state = window['__heldTimers'] as { real: Timer; held: Array<() => void> } | undefined;
    if (!state) return 0;
    window['setTimeout'] = state.real;
    delete window['__heldTimers'];
    for (const run of state.held) run();
    return state.held.length;
  });
}
