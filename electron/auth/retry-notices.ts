/** How a slow service is told to the analyst while the service client retries. */
import type { EventSink } from '../bridge/handlers';
import type { ApiError } from '../service-client/errors';

const retryNoticeEveryMs = 5_000;

export interface RetryInfo {
  what: string;
  attempt: number;
  error: ApiError;
}

/**
 * A slow or failing service is retried within one deadline: the analyst hears that the app is
 * still trying (once every few seconds, not per page) and can cancel the sync meanwhile.
 */
export function throttledRetryNotices(events: EventSink): (info: RetryInfo) => void {
  let lastNotice = 0;
  return ({ what, attempt, error }) => {
    const now = Date.now();
    if (now - lastNotice < retryNoticeEveryMs) return;
    lastNotice = now;
    events.emit('app.notice', {
      level: 'warning',
      message: `Still trying: ${what} failed (${error.message}); attempt ${attempt + 1} follows. Cancel the sync to stop.`,
    });
  };
}
