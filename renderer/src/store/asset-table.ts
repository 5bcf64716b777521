/**
 * The workspace's asset views by local id, immutable, in 64 shards: a change copies only the shards
 * it touches (~260 entries of a 16,667-asset workspace) and the store still gets a new table to
 * compare. Copying one whole Map per keypress cost ~2.5 ms at 100k rows, most of the save's own work.
 * Iteration goes shard by shard, not in the workspace's order: the store's `order` is that.
 */
import type { AssetView } from '../../../shared/sync/types';

const SHARDS = 64;

/**
 * FNV-1a over the id's last 8 characters: local ids are random UUIDs, whose tail spreads as well as
 * the whole and costs a quarter of it on every lookup.
 */
function shardOf(localId: string): number {
  let h = 0x811c9dc5;
  for (let i = Math.max(0, localId.length - 8); i < localId.length; i++)
    h = Math.imul(h ^ localId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHARDS;
}

export class AssetTable implements Iterable<[string, AssetView]> {
  static readonly empty = new AssetTable(
    Array.from({ length: SHARDS }, () => new Map()),
    0,
  );

  /** The views by local id; of two with one id, the later. */
  static of(views: Iterable<AssetView>): AssetTable {
    const shards = Array.from({ length: SHARDS }, () => new Map<string, AssetView>());
    let size = 0;
    for (const view of views) {
      const shard = shards[shardOf(view.localId)]!;
      if (!shard.has(view.localId)) size++;
      shard.set(view.localId, view);
    }
    return new AssetTable(shards, size);
  }

  private constructor(
    private readonly shards: ReadonlyArray<ReadonlyMap<string, AssetView>>,
    readonly size: number,
  ) {}

  get(localId: string): AssetView | undefined {
    return this.shards[shardOf(localId)]!.get(localId);
  }

  has(localId: string): boolean {
    return this.shards[shardOf(localId)]!.has(localId);
  }

  /** A table with these views put in (added or replaced) and these ids taken out; this one unchanged. */
  with(put: Iterable<AssetView>, remove: Iterable<string> = []): AssetTable {
    const shards = [...this.shards];
    const copied = new Set<number>();
    const writable = (i: number): Map<string, AssetView> => {
      if (!copied.has(i)) {
        shards[i] = new Map(shards[i]);
        copied.add(i);
      }
      return shards[i] as Map<string, AssetView>;
    };
    let size = this.size;
    for (const view of put) {
      const shard = writable(shardOf(view.localId));
      if (!shard.has(view.localId)) size++;
      shard.set(view.localId, view);
    }
    for (const localId of remove) {
      const i = shardOf(localId);
      if (!shards[i]!.has(localId)) continue;
      writable(i).delete(localId);
      size--;
    }
    return copied.size === 0 ? this : new AssetTable(shards, size);
  }

  *values(): IterableIterator<AssetView> {
    for (const shard of this.shards) yield* shard.values();
  }

  *[Symbol.iterator](): IterableIterator<[string, AssetView]> {
    for (const shard of this.shards) yield* shard.entries();
  }
}
