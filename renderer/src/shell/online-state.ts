/**
 * What the header says of the service, from the session and the sync. Pure. A service that answered
 * 5xx is having trouble, not offline: the sync waits to try again (`retryAt`) or stopped on it.
 */
import type { SyncProgress, SyncReport } from '../../../shared/sync/types';

export type OnlineState = 'online' | 'offline' | 'paused' | 'trouble';

export function onlineState(input: {
  online: boolean;
  paused: boolean;
  running: boolean;
  progress: SyncProgress | null | undefined;
  report: SyncReport | null | undefined;
  /** Formats a time of day (the locale's, in the app). */
  time?: (epochMs: number) => string;
}): { state: OnlineState; text: string; title: string } {
  const { online, paused, running, progress, report } = input;
  const retryAt = running ? progress?.retryAt : undefined;
  const trouble = running ? retryAt !== undefined : report?.stopped?.serviceTrouble === true;
  const time = input.time ?? ((ms: number) => new Date(ms).toLocaleTimeString());
  if (paused) return { state: 'paused', text: 'Sign in needed', title: 'The token was refused or expired' };
  if (!online)
    return {
      state: 'offline',
      text: 'Offline',
      title: 'The service could not be reached: work goes on offline',
    };
  if (trouble)
    return {
      state: 'trouble',
      text:
        retryAt === undefined
          ? 'Service having trouble'
          : `Service having trouble · retry at ${time(retryAt)}`,
      title: 'The service answered with an error of its own (5xx): it is having trouble, not out of reach',
    };
  return { state: 'online', text: 'Online', title: 'The service answered the last call' };
}
