/**
 * A workspace file that cannot be read (issue 29): the app starts anyway, says which workspace and
 * why, leaves the file as it is, offers a rebuild from the service (naming the unsent changes as lost
 * only when the damaged file shows them), and every other entity's workspace works as before. The
 * whole app core with its embedded sandbox, restarted on the same data folder as a user would.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  chmodSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAppCore, type AppCore } from '../../../electron/app/app-core';
import { MemorySecretStore } from '../../../electron/auth/secret-store';
import { toBridgeErrorBody } from '../../../electron/bridge/errors';
import { describeDamage, unsentIn } from '../../../electron/workspace/workspace-damage';
import { unsentCount } from '../../../electron/sync/pending-work';
import { testAssessmentYear } from '../../../support/test-app';

const cores: AppCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

async function start(dataDir: string): Promise<AppCore> {
  const core = await startAppCore({
    dataDir,
    version: 'test',
    host: 'browser',
    assessmentYear: testAssessmentYear,
    // One secret store across the restarts, as a keychain would be.
    secrets: { store, status: { available: true, backend: 'keychain' } },
  });
  cores.push(core);
  await core.connected;
  return core;
}
const store = new MemorySecretStore();

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A first run: both demo entities pulled, one pending edit in the first. */
async function firstRun(): Promise<{ dataDir: string; first: number; second: number; file: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'asset-desk-damaged-'));
  const core = await start(dataDir);
  const state = await core.handlers['session.get']({});
  const [first, second] = state.entities.map((entity) => entity.id) as [number, number];
  await core.handlers['session.selectEntity']({ entityId: second });
  await core.handlers['session.selectEntity']({ entityId: first });
  const asset = (await core.handlers['workspace.snapshot']({})).assets[0];
  await core.handlers['workspace.edit']({
    edits: [{ localId: asset?.localId as string, path: 'address', value: 'Unsent edit' }],
  });
  await core.close();
  cores.splice(cores.indexOf(core), 1);
  const folder = readdirSync(join(dataDir, 'workspaces'))[0] as string;
  return { dataDir, first, second, file: join(dataDir, 'workspaces', folder, `entity-${first}.sqlite`) };
}

function overwrite(file: string, at: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, bytes, 0, bytes.length, at);
  closeSync(fd);
}

/**
 * Makes a folder refuse writes, as a read-only folder does for its user. Root writes through modes,
 * so as root (these machines) the folder is made immutable instead (ext4's `chattr +i`).
 */
function readOnly(folder: string): () => void {
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', folder]);
    return () => execFileSync('chattr', ['-i', folder]);
  }
  chmodSync(folder, 0o500);
  return () => chmodSync(folder, 0o700);
}

describe('a damaged workspace file', () => {
  it('header overwritten: the app starts, names the workspace and why, rebuilds it on request, the file kept aside untouched', async () => {
    const { dataDir, first, second, file } = await firstRun();
    overwrite(file, 0, Buffer.alloc(100, 0x41));
    const before = sha(file);

    const core = await start(dataDir);
    const state = await core.handlers['session.get']({});
    const problem = state.workspaceProblem;
    expect(problem).toMatchObject({ entityId: first, kind: 'damaged', canRebuild: true, unsent: null });
    expect(problem?.message).toMatch(
      /^The workspace of ".+" \(entity \d+\) cannot be opened: its file is damaged/,
    );
    expect(problem?.message).toMatch(/cannot be read from the damaged file/);
    expect(sha(file)).toBe(before);
    // A call on the missing workspace says why, as a request the user can act on (not "internal").
    const refused = await Promise.resolve()
      .then(() => core.handlers['workspace.snapshot']({}))
      .catch((error: unknown) => toBridgeErrorBody(error));
    expect(refused).toMatchObject({ code: 'bad_request', message: problem?.message });

    // The other entity's workspace is untouched and works.
    await core.handlers['session.selectEntity']({ entityId: second });
    const other = await core.handlers['workspace.snapshot']({});
    expect(other.assets.length).toBeGreaterThan(0);
    await core.handlers['workspace.edit']({
      edits: [{ localId: other.assets[0]?.localId as string, path: 'address', value: 'Still works' }],
    });

    // Rebuilt from the service: the damaged file moved aside unchanged, the entity pulled again.
    const after = await core.handlers['workspace.rebuild']({});
    expect(after.workspaceProblem).toBeUndefined();
    expect(after.activeEntityId).toBe(first);
    const aside = readdirSync(dirname(file)).find((name) =>
      name.startsWith(`entity-${first}.sqlite.damaged-`),
    );
    expect(aside).toBeDefined();
    expect(sha(join(dirname(file), aside as string))).toBe(before);
    const rebuilt = await core.handlers['workspace.snapshot']({});
    expect(rebuilt.assets.length).toBeGreaterThan(0);
  }, 120_000);

  it('pages damaged past the header: a call on it fails saying so, not as "internal"', async () => {
    const { dataDir, first, file } = await firstRun();
    const size = statSync(file).size;
    const page = 16 * 1024;
    // The schema's page stays; every table page after it is garbage.
    overwrite(file, page, Buffer.alloc(size - page, 0xff));
    const core = await start(dataDir);
    const snapshot = await Promise.resolve()
      .then(() => core.handlers['workspace.snapshot']({}))
      .catch((error: unknown) => toBridgeErrorBody(error));
    const state = await core.handlers['session.get']({});
    expect(state.workspaceProblem).toMatchObject({ entityId: first, kind: 'damaged' });
    expect(snapshot).toMatchObject({ code: 'bad_request', message: state.workspaceProblem?.message });
    expect(existsSync(file)).toBe(true);
  }, 120_000);

  it('truncated: the app starts and says which workspace', async () => {
    const { dataDir, first, file } = await firstRun();
    truncateSync(file, Math.floor(statSync(file).size / 3));
    const core = await start(dataDir);
    await Promise.resolve()
      .then(() => core.handlers['workspace.snapshot']({}))
      .catch(() => undefined);
    const state = await core.handlers['session.get']({});
    expect(state.workspaceProblem).toMatchObject({ entityId: first, kind: 'damaged', canRebuild: true });
  }, 120_000);

  it('with its unsent changes still readable, they are named as lost; with none, nothing is', async () => {
    const { first, file } = await firstRun();
    const described = (path: string) =>
      describeDamage({
        entityId: first,
        entityName: 'E',
        file: path,
        kind: 'damaged',
        error: new Error('x'),
        countUnsent: unsentCount,
      });
    expect(unsentIn(file, unsentCount)).toBe(1);
    expect(described(file).message).toMatch(
      /It holds 1 change not yet sent, which a rebuild cannot bring back/,
    );
    const other = readdirSync(dirname(file)).find((name) => name.endsWith('.sqlite') && !file.endsWith(name));
    expect(described(join(dirname(file), other as string)).message).toMatch(
      /It had no changes waiting to be sent, so a rebuild loses nothing/,
    );
  }, 120_000);

  it('in a folder that refuses writes: the app starts, says so, changes nothing; writable again, it opens', async () => {
    const { dataDir, first, second, file } = await firstRun();
    const before = sha(file);
    const restore = readOnly(dirname(file));
    let core: AppCore;
    try {
      core = await start(dataDir);
      await Promise.resolve()
        .then(() => core.handlers['workspace.snapshot']({}))
        .catch(() => undefined);
      const state = await core.handlers['session.get']({});
      expect(state.workspaceProblem).toMatchObject({
        entityId: first,
        kind: 'unwritable',
        canRebuild: false,
      });
      expect(state.workspaceProblem?.message).toMatch(
        /refuses to be written.*Nothing in it was changed or lost/,
      );
      expect(sha(file)).toBe(before);
      // The connection's other workspace shares the folder: it is refused the same way, not a crash.
      const other = await Promise.resolve()
        .then(() => core.handlers['session.selectEntity']({ entityId: second }))
        .catch((error: unknown) => toBridgeErrorBody(error));
      expect(other).toBeDefined();
      expect((await core.handlers['session.get']({})).workspaceProblem).toMatchObject({ kind: 'unwritable' });
    } finally {
      restore();
    }
    // Writable again: opening the entity again works, the pending edit still there.
    await core.handlers['session.selectEntity']({ entityId: first });
    const state = await core.handlers['session.get']({});
    expect(state.workspaceProblem).toBeUndefined();
    const snapshot = await core.handlers['workspace.snapshot']({});
    expect(snapshot.assets.some((a) => a.doc['address'] === 'Unsent edit')).toBe(true);
  }, 120_000);
});
