/** Whether the first-run guide shows. Dismissal is a UI preference, not a secret: localStorage. */
import { create } from 'zustand';

const storageKey = 'asset-desk.first-run-guide';

function readDismissed(): boolean {
  try {
    return localStorage.getItem(storageKey) === 'dismissed';
  } catch {
    // Storage can be disabled by policy; then the guide simply shows each run.
    return false;
  }
}

function writeDismissed(dismissed: boolean): void {
  try {
    if (dismissed) localStorage.setItem(storageKey, 'dismissed');
    else localStorage.removeItem(storageKey);
  } catch {
    /* see readDismissed */
  }
}

export const useGuide = create<{ visible: boolean }>(() => ({ visible: !readDismissed() }));

export function dismissGuide(): void {
  writeDismissed(true);
  useGuide.setState({ visible: false });
}

export function showGuide(): void {
  writeDismissed(false);
  useGuide.setState({ visible: true });
}
