import type { BridgeErrorBody } from './contract';

/** What every host sends back for a call: errors as data, since neither IPC nor HTTP keep classes. */
export type BridgeEnvelope = { ok: true; result: unknown } | { ok: false; error: BridgeErrorBody };

export class BridgeCallError extends Error {
  constructor(
    readonly code: BridgeErrorBody['code'],
    message: string,
  ) {
    super(message);
    this.name = 'BridgeCallError';
  }
}

export function unwrapEnvelope(envelope: unknown): unknown {
  if (typeof envelope === 'object' && envelope !== null && 'ok' in envelope) {
    const value = envelope as BridgeEnvelope;
    if (value.ok) return value.result;
    throw new BridgeCallError(value.error.code, value.error.message);
  }
  throw new BridgeCallError('internal', 'The app host sent a malformed answer');
}
