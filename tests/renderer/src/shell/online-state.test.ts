/** The header's word on the service: a 5xx is "having trouble" with the next try's time, never "Offline". */
import { describe, expect, it } from 'vitest';
import { onlineState } from '../../../../renderer/src/shell/online-state';
import type { SyncReport } from '../../../../shared/sync/types';

const time = (ms: number) => `t${ms}`;
const stopped = (stop: NonNullable<SyncReport['stopped']>): SyncReport => ({
  pull: { added: 0, updated: 0, conflicts: 0, removed: 0, remoteDeletedConflicts: 0, adopted: 0 },
  push: {
    requests: 1,
    created: 0,
    updated: 0,
    deleted: 0,
    invalid: 0,
    notFound: 0,
    blocked: [],
    conflicted: 0,
    unconfirmedDeletes: 0,
  },
  stopped: stop,
});
const base = { online: true, paused: false, running: false, progress: null, report: null, time };

describe('the header’s online state', () => {
  it('while the sync waits on a 5xx: having trouble, and when it tries again', () => {
    const progress = { phase: 'push' as const, done: 0, total: 1, retryAt: 1234, message: 'HTTP 503' };
    expect(onlineState({ ...base, running: true, progress })).toMatchObject({
      state: 'trouble',
      text: 'Service having trouble · retry at t1234',
    });
  });

  it('after a sync stopped on a 5xx: having trouble, not offline', () => {
    const report = stopped({
      reason: 'error',
      message: 'The service is having trouble (HTTP 503)',
      serviceTrouble: true,
    });
    expect(onlineState({ ...base, report })).toMatchObject({
      state: 'trouble',
      text: 'Service having trouble',
    });
  });

  it('unreachable is offline; a sync that went through is online', () => {
    const report = stopped({ reason: 'error', message: 'Could not reach the service', offline: true });
    expect(onlineState({ ...base, online: false, report }).text).toBe('Offline');
    expect(onlineState({ ...base, running: true, progress: { phase: 'push', done: 0, total: 1 } }).text).toBe(
      'Online',
    );
  });
});
