/**
 * The browser's globals as the benches' `page.evaluate` callbacks use them. The benches compile
 * without the DOM's types (they run under Node), so each file that hands Chromium a callback
 * declares the few globals it reads by these shapes.
 */
export interface PageElement {
  querySelector(selector: string): PageElement | null;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  click(): void;
}

export interface PageGlobals {
  document: { querySelector(selector: string): PageElement | null };
  performance: {
    now(): number;
    getEntriesByName(name: string): Array<{ startTime: number }>;
  };
  requestAnimationFrame(callback: (time: number) => void): number;
  window: {
    addEventListener(type: string, fn: (e: { key: string }) => void, capture: boolean): void;
  };
}
