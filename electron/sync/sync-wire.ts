/**
 * What crosses between main and the sync's worker thread: requests, replies, errors as plain data
 * (an ApiError stays an ApiError on the other side), and which buffers move instead of being copied.
 */
import { ApiError, type ApiErrorKind } from '../service-client/errors';
import type { SessionOp } from './sync-session';

export type WorkerRequest =
  | { id: number; kind: 'open'; session: number; file: string }
  | { id: number; kind: 'close'; session: number }
  | { id: number; kind: 'run'; session: number; op: SessionOp; arg: unknown };

export type WorkerReply =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; error: WireError };

export interface WireError {
  name: string;
  message: string;
  kind?: ApiErrorKind;
  details?: { status?: number; ambiguous?: boolean; body?: unknown };
}

export function toWire(error: unknown): WireError {
  if (error instanceof ApiError) {
    const { status, ambiguous, body } = error.details;
    return {
      name: error.name,
      message: error.message,
      kind: error.kind,
      details: { status, ambiguous, body },
    };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

export function fromWire(wire: WireError): Error {
  if (wire.kind) return new ApiError(wire.kind, wire.message, wire.details ?? {});
  const error = new Error(wire.message);
  error.name = wire.name;
  return error;
}

/**
 * The byte buffers in `value` (at its top level or one level down) that own their whole memory:
 * those can be moved to the other thread without a copy (a view into a shared pool could not).
 */
export function movableBuffers(value: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const visit = (item: unknown, depth: number) => {
    if (item instanceof Uint8Array) {
      const { buffer } = item;
      if (buffer instanceof ArrayBuffer && item.byteOffset === 0 && item.byteLength === buffer.byteLength)
        out.push(buffer);
    } else if (depth > 0 && typeof item === 'object' && item !== null && !Array.isArray(item)) {
      for (const child of Object.values(item)) visit(child, depth - 1);
    }
  };
  visit(value, 2);
  return out;
}
