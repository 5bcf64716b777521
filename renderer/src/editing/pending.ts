/**
 * Values typed but not yet saved by the workspace. A cell shows its pending value (marked as saving)
 * until the bridge answers; only then does the store hold it as saved.
 */
import type { Scalar } from '../../../shared/sync/asset-doc';

type Cell = { localId: string; path: string };
type Listener = (cells: readonly Cell[]) => void;

const values = new Map<string, { value: Scalar; seq: number }>();
const listeners = new Set<Listener>();
let seq = 0;
let version = 0;

const key = (localId: string, path: string): string => `${localId}\u0000${path}`;

export const pending = {
  has(localId: string, path: string): boolean {
    return values.has(key(localId, path));
  },
  /** Changes whenever a value is marked or cleared (cell colours depend on it). */
  get version(): number {
    return version;
  },
  get(localId: string, path: string): { value: Scalar } | undefined {
    return values.get(key(localId, path));
  },
  /** Marks cells as saving; returns a token to clear exactly these marks later. */
  set(edits: ReadonlyArray<{ localId: string; path: string; value: Scalar }>): number {
    const token = ++seq;
    version++;
    for (const e of edits) values.set(key(e.localId, e.path), { value: e.value, seq: token });
    return token;
  },
  clear(edits: ReadonlyArray<{ localId: string; path: string }>, token: number): void {
    version++;
    for (const e of edits) {
      const k = key(e.localId, e.path);
      if (values.get(k)?.seq === token) values.delete(k);
    }
  },
  get size(): number {
    return values.size;
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /** The cells whose pending value came or went (their grids redraw just them). */
  notify(cells: readonly Cell[]): void {
    for (const listener of listeners) listener(cells);
  },
};
