/**
 * Sync against the sandbox with its real limits (10 batches a minute, 5,000 per field).
 * - push: 20,000 new assets, then the same 20,000 changed; requests vs the minimum, seconds vs the
 *   floor (the rate limit's wait plus what the service itself takes for the same bodies, measured by
 *   posting them raw with other tokens just before and just after the engine's push: their mean).
 * - pull: 20,000 assets at per_page 100 into an empty workspace, against fetching the same listing
 *   alone just before and just after it (the mean of the two); seconds and pages per second; three
 *   pulls a round.
 * Five rounds, each with its own tokens and entities; each goal is the median of its rounds' figures.
 * - push to grid (issue 35): in the whole app in Chromium, from a 20,000-create push's end to the grid
 *   showing every acknowledged row, against a full reload of the same workspace in the same run
 *   (`support/push-to-grid.ts`): the push answers with the views it changed, goal <= x0.3.
 * Issue 33: each within x1.1 of its floor. The push's floor is what no client can beat: the waits
 * the service's rate limit forces on that many requests plus the service's own time for the same
 * bodies, posted raw. The pull's floor is the same listing fetched and parsed alone, without
 * merging or writing anything: a pull cannot take less than reading what it pulls.
 */
import { eventLoopProbe, goal, percentile } from './support/goal';
import { measurePushToGrid } from './support/push-to-grid';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BATCH_MAX_PER_FIELD, defaultCertificationSchemes, defaultPropertyTypeCodes } from '../shared/domain';
import type { AssetDoc } from '../shared/sync/asset-doc';
import { SubmissionApiClient } from '../electron/service-client/service-client';
import { SyncEngine } from '../electron/sync/sync-engine';
import { WorkspaceStore } from '../electron/workspace/workspace-store';

const assessmentYear = 2025;
const count = 20_000;
const years = 2;
/** Issue 33: push and pull within this ratio of their floors. */
const FLOOR_RATIO = 1.1;
/** Issue 35: the push's changed views shown in at most this share of a full reload's time. */
const VIEWS_RATIO = 0.3;
/** The sandbox's real limit, as the bench child sets it. */
const rate = { limit: 10, windowMs: 60_000 };

/** A pushed asset as every measure here makes it (also `support/push-to-grid-alone.ts`'s). */
export function asset(i: number, tag: string): AssetDoc {
  const size = 1_000 + (i % 50) * 400;
  return {
    name: `${tag} ${i}`,
    country: 'NL',
    state_province: 'Noord-Holland',
    city: 'Amsterdam',
    ownership: 100,
    property_type_code: 'OCHI',
    size,
    annual_data: Array.from({ length: years }, (_, k) => ({
      year: assessmentYear - 1 - k,
      owned_entire_period: true,
      tenant_ctrl: false,
      whole_building: true,
      en_abs_we: size * 110 + k,
      en_cov_we: size,
      en_tot_we: size,
    })),
  };
}

/** The floor a client cannot beat: waits the rate limit forces on n requests. */
function rateLimitFloorMs(requests: number): number {
  return Math.floor(Math.max(0, requests - 1) / rate.limit) * rate.windowMs;
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** A round's tokens and entities: the engine's, then the peer before it and the peer after it. */
interface Round {
  tokens: [string, string, string];
  entityIds: [number, number, number];
}

/**
 * A peer: the bench's bodies posted raw in the fewest batches, with a token and entity of its own;
 * each call answers the service's time for them (the client's own encoding and parsing included).
 */
function rawPeer(baseUrl: string, token: string, entityId: number) {
  const client = new SubmissionApiClient({ baseUrl, getToken: () => token });
  const ids: number[] = [];
  const timed = async (body: Parameters<SubmissionApiClient['postBatch']>[1]) => {
    const started = performance.now();
    const answer = await client.postBatch(entityId, body);
    return { ms: performance.now() - started, answer };
  };
  return {
    async create(batches: number): Promise<number> {
      let ms = 0;
      for (let b = 0; b < batches; b++) {
        const first = b * BATCH_MAX_PER_FIELD;
        const { ms: took, answer } = await timed({
          create: Array.from({ length: BATCH_MAX_PER_FIELD }, (_, k) => ({
            ...asset(first + k, 'Peer'),
            partners_id: first + k + 1,
          })),
        });
        ms += took;
        for (const each of answer.created)
          if (each.service_asset_id !== null) ids.push(each.service_asset_id);
      }
      return ms;
    },
    async update(): Promise<number> {
      let ms = 0;
      for (let first = 0; first < ids.length; first += BATCH_MAX_PER_FIELD) {
        const batch = ids.slice(first, first + BATCH_MAX_PER_FIELD);
        const { ms: took } = await timed({
          update: batch.map((id, k) => ({ service_asset_id: id, address: `Street ${first + k}` })),
        });
        ms += took;
      }
      return ms;
    },
  };
}

interface Sandbox {
  baseUrl: string;
  rounds: Round[];
  stop(): void;
}

/**
 * Rounds: on this shared 2-core machine one run's figures move by a fifth from one run to the next
 * (the service and the client share the cores), so each ratio is the median of its rounds, each
 * round measuring the peer beside the engine.
 */
const rounds = 5;
/**
 * Pulls per round: a pull is short (about half a second), so one alone moves with whatever else the
 * machine does in that moment; three per round put the pull's median on fifteen of them.
 */
const pullsPerRound = 3;

async function startSandboxProcess(): Promise<Sandbox> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./support/sandbox-child.ts', import.meta.url)),
      String(assessmentYear),
      String(rounds),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      if (buffer.includes('\n')) resolve(buffer.split('\n')[0] ?? '');
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited (${code})`)));
  });
  const info = JSON.parse(line) as Omit<Sandbox, 'stop'>;
  return { ...info, stop: () => child.kill('SIGTERM') };
}

const validationContext = (mode: 'create' | 'update') => ({
  mode,
  assessmentYear,
  areaUnit: 'm2' as const,
  certifications: defaultCertificationSchemes,
  propertyTypes: defaultPropertyTypeCodes,
});

/** Main's answer to a bridge call while the engine pushes and pulls (issue 18: p99 <= 50 ms). */
const delays: number[] = [];

/** Runs `work` with main's event loop probed (the bench's own setup between runs is not). */
async function probed<T>(work: () => Promise<T>): Promise<T> {
  const probe = eventLoopProbe();
  try {
    return await work();
  } finally {
    delays.push(...(await probe.stop()));
  }
}

/** One round's ratios: each push against its floor, the pull against fetching alone. */
async function round(baseUrl: string, { tokens, entityIds }: Round, dir: string) {
  const [engineToken] = tokens;
  const [entityId] = entityIds;
  const store = WorkspaceStore.open(join(dir, 'ws.sqlite'));
  // When each push's first batch left (its plan's local cost before the service is asked anything).
  let firstPost: number | undefined;
  const client = new SubmissionApiClient({
    baseUrl,
    getToken: () => engineToken,
    fetch: (input, init) => {
      if (init?.method === 'POST') firstPost ??= performance.now();
      return fetch(input, init);
    },
  });
  const firstBatch = (started: number) =>
    console.log(`  first batch left ${fmt((firstPost ?? NaN) - started)} after the push's start`);
  const engine = new SyncEngine({ store, client, entityId, validationContext });
  store.transaction(() => {
    for (let i = 0; i < count; i++) store.createAsset(asset(i, 'Bench'));
  });

  // The peers: the same bodies posted raw, one just before the engine and one just after it, each with
  // a token and entity of its own (a token has 10 batches a minute); the service's time is their mean,
  // as the pull's: the service warms up and fills its heap through a round, and one order would
  // favour whichever came second.
  const [peerBefore, peerAfter] = [1, 2].map((k) => rawPeer(baseUrl, tokens[k]!, entityIds[k]!));
  const minimum = Math.ceil(count / BATCH_MAX_PER_FIELD);
  const peerCreate = [await peerBefore!.create(minimum)];
  let t = performance.now();
  firstPost = undefined;
  const created = await probed(() => engine.push());
  const createMs = performance.now() - t;
  firstBatch(t);
  peerCreate.push(await peerAfter!.create(minimum));
  const create = report('push 20,000 creates', created.requests, minimum, createMs, peerCreate);

  const records = store.listAssets();
  store.transaction(() => {
    for (const [i, record] of records.entries()) store.setValue(record.localId, 'address', `Street ${i}`);
  });
  const peerUpdate = [await peerBefore!.update()];
  t = performance.now();
  firstPost = undefined;
  const updated = await probed(() => engine.push());
  const updateMs = performance.now() - t;
  firstBatch(t);
  peerUpdate.push(await peerAfter!.update());
  // Each token has spent 4 of its 10 requests this minute: the 4 updates still fit, so no wait.
  const update = report(
    'push 20,000 updates',
    updated.requests,
    minimum,
    updateMs,
    peerUpdate,
    created.requests,
  );

  let pages = 0;
  let listed = 0;
  /** The peer: the same listing fetched (and parsed) alone, without merging anything. */
  const fetchAlone = async () => {
    const started = performance.now();
    listed = (await client.listAllAssets(entityId, { onPage: (done) => (pages = done) })).length;
    return performance.now() - started;
  };
  // Each pull is timed against the listing fetched alone just before and just after it (the mean
  // taken: the service warms up and fills its heap through a round, and one order would favour
  // whichever came second); the fetch after one pull is the fetch before the next.
  const pull: number[] = [];
  let before = await fetchAlone();
  for (let p = 0; p < pullsPerRound; p++) {
    const fresh = WorkspaceStore.open(join(dir, `fresh-${p}.sqlite`));
    const pullEngine = new SyncEngine({ store: fresh, client, entityId, validationContext });
    t = performance.now();
    const pulled = await probed(() => pullEngine.pull());
    const pullMs = performance.now() - t;
    fresh.close();
    const after = await fetchAlone();
    const fetchMs = (before + after) / 2;
    console.log(
      `pull ${listed} assets (per_page 100): ${pages} pages fetched alone in ${fmt(fetchMs)} (${fmt(before)} before the pull, ${fmt(after)} after; ${Math.round((pages / fetchMs) * 1000)} pages/s); ` +
        `pulled into an empty workspace in ${fmt(pullMs)} (${pulled.added} added, ${Math.round((pages / pullMs) * 1000)} pages/s; ` +
        `ratio to fetching alone ${(pullMs / fetchMs).toFixed(2)})`,
    );
    pull.push(pullMs / fetchMs);
    before = after;
  }
  store.close();
  return { create, update, pull };
}

export default async function run(): Promise<void> {
  delays.length = 0;
  const sandbox = await startSandboxProcess();
  const figures: Array<Awaited<ReturnType<typeof round>>> = [];
  for (const [i, each] of sandbox.rounds.entries()) {
    console.log(`round ${i + 1} of ${rounds}`);
    const dir = mkdtempSync(join(tmpdir(), 'bench-sync-'));
    figures.push(await round(sandbox.baseUrl, each, dir));
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (key: 'create' | 'update' | 'pull') =>
    percentile(
      figures.flatMap((f) => f[key]),
      50,
    );
  goal(
    `sync push 20,000 creates against its floor, median of ${rounds}`,
    median('create'),
    'x',
    '<=',
    FLOOR_RATIO,
  );
  goal(
    `sync push 20,000 updates against its floor, median of ${rounds}`,
    median('update'),
    'x',
    '<=',
    FLOOR_RATIO,
  );
  goal(
    `sync pull of 20,000 assets against fetching alone, median of ${rounds * pullsPerRound}`,
    median('pull'),
    'x',
    '<=',
    FLOOR_RATIO,
  );
  goal('main answers a bridge call during a 20k push and pull, p99', percentile(delays, 99), 'ms', '<=', 50);
  console.log(
    `  (${delays.length} calls, median ${percentile(delays, 50).toFixed(1)} ms, max ${Math.max(...delays).toFixed(0)} ms)`,
  );
  sandbox.stop();

  const grid = await measurePushToGrid(count, (i) => asset(i, 'Grid'));
  console.log(
    `push of ${count.toLocaleString('en-US')} creates to a grid of ${grid.total.toLocaleString('en-US')} assets showing every acknowledged row: ${grid.viewsMs} ms; a full reload of the same workspace to every row shown: ${grid.reloadMs.toFixed(0)} ms`,
  );
  goal(
    'push end to every acknowledged row in the grid, against a full reload',
    grid.viewsMs / grid.reloadMs,
    'x',
    '<=',
    VIEWS_RATIO,
  );
}

function report(
  label: string,
  requests: number,
  minimum: number,
  ms: number,
  [serviceBefore, serviceAfter]: number[],
  spent = 0,
): number {
  const serviceMs = (serviceBefore! + serviceAfter!) / 2;
  const floor = rateLimitFloorMs(requests + spent) + serviceMs;
  console.log(
    `${label}: ${requests} requests (minimum ${minimum}, ratio ${(requests / minimum).toFixed(2)}); ` +
      `${fmt(ms)} vs floor ${fmt(floor)} (rate-limit waits ${fmt(rateLimitFloorMs(requests + spent))} + service time for the same bodies ${fmt(serviceMs)}, ${fmt(serviceBefore!)} before and ${fmt(serviceAfter!)} after); ` +
      `ratio ${(ms / floor).toFixed(2)} (goal ≤ ${FLOOR_RATIO})`,
  );
  return ms / floor;
}
