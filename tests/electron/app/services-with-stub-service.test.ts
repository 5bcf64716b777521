/**
 * The main-process services composed without the sandbox: a replay server plays the service, so the
 * session, workspace and sync services can be checked on their own (no sandbox process, no window).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConnectionRegistry } from '../../../electron/auth/connections';
import { MemorySecretStore } from '../../../electron/auth/secret-store';
import { SessionService } from '../../../electron/auth/session-service';
import { EventRelay } from '../../../electron/app/event-relay';
import { SyncService } from '../../../electron/sync/sync-service';
import { unsentCount } from '../../../electron/sync/pending-work';
import { WorkspaceService } from '../../../electron/workspace/workspace-service';
import { startReplayServer, type ReplayServer } from '../../support/replay-server';
import * as docs from '../../fixtures/service-docs/assets';

const E = docs.entity.id;
let replay: ReplayServer;

beforeAll(async () => {
  replay = await startReplayServer({
    'GET /api/v1/entities': { body: [docs.entity] },
    'GET /api/v1/certifications': { body: docs.certificationsList },
    'GET /api/v1/energy_ratings': { body: docs.energyRatingsList },
    'GET /api/v0/lists/equity_asset_type': { body: docs.propertyTypeList },
    'GET /api/v0/lists/country': { body: docs.countryList },
    [`GET /api/v1/entities/${E}/assets`]: {
      body: docs.assetsListText,
      headers: { 'per-page': '100', total: '2' },
    },
  });
});
afterAll(() => replay?.close().catch(() => undefined));

async function compose() {
  const dataDir = mkdtempSync(join(tmpdir(), 'asset-desk-services-'));
  const events = new EventRelay();
  const notices: string[] = [];
  events.attach({
    emit: (name, payload) => void (name === 'app.notice' && notices.push(JSON.stringify(payload))),
  });
  const registry = await openConnectionRegistry({ dataDir });
  const session = new SessionService({
    dataDir,
    secrets: { store: new MemorySecretStore(), status: { available: true, backend: 'keychain' } },
    registry,
    events,
    // The service this test talks to stands where the local sandbox would.
    localSandbox: {
      ensure: async () => ({
        baseUrl: replay.baseUrl,
        token: 'replay-token',
        oauthClient: { clientId: 'c', clientSecret: 's' },
        demoUser: { email: 'analyst@example.com', password: 'not-used-here' },
      }),
    },
  });
  const workspaces = new WorkspaceService({
    dataDir,
    assessmentYear: docs.Y1 + 1,
    session,
    events,
    countUnsent: unsentCount,
  });
  const sync = new SyncService({ session, workspaces, events });
  session.activeEntityId = () => workspaces.current?.entityId ?? null;
  session.listen({
    activated: (entities) => workspaces.reopen(entities),
    signedOut: () => workspaces.close(),
  });
  await session.activate(registry.active());
  return { session, workspaces, sync, notices, registry };
}

describe('main services over a stub service', () => {
  it('enter the connection, open the entity, fill it with a first pull and take the lists', async () => {
    const { session, workspaces, registry } = await compose();
    const state = session.state();
    expect(state).toMatchObject({
      online: true,
      activeEntityId: E,
      auth: { signedIn: true, kind: 'sandbox' },
    });
    const snapshot = await workspaces.handlers['workspace.snapshot']({});
    expect(snapshot.assets.map((a) => a.serviceAssetId).sort()).toEqual([91001, 91002]);
    expect(snapshot.reference.sources.propertyTypes).toBe('service');
    // The docs' listing names the id gresb_asset_id: the connection learned it from that answer
    // (over what the sandbox connection stated), and its details say so.
    const learned = { name: 'gresb_asset_id', source: 'learned' };
    expect(session.state().connections.find((c) => c.active)?.assetIdName).toEqual(learned);
    expect(registry.active().assetIds).toEqual(learned);
    workspaces.close();
  });

  it('an edit only of fields the real service removed is kept here, and is pending nowhere: views, review, sync', async () => {
    const { session, workspaces, sync } = await compose();
    const [asset, other] = (await workspaces.handlers['workspace.snapshot']({})).assets;
    expect(session.client.assetIds.name).toBe('gresb_asset_id');
    const year = (asset!.doc['annual_data'] as Array<{ year: number }>)[0]!.year;
    const {
      views: [kept],
    } = await workspaces.handlers['workspace.edit']({
      edits: [
        { localId: asset!.localId, path: 'lat', value: 52.09 },
        { localId: asset!.localId, path: 'lng', value: 5.12 },
        { localId: asset!.localId, path: `annual_data/${year}/owned_entire_period`, value: false },
      ],
    });
    // The value stays in the workspace, marked as kept here; the asset is not pending (the header's
    // badge counts the views' status), nor in the review's updates.
    expect(kept).toMatchObject({ status: 'clean', doc: { lat: 52.09, lng: 5.12 } });
    expect(kept!.keptHere?.sort()).toEqual(['annual_data/' + year + '/owned_entire_period', 'lat', 'lng']);
    expect(kept!.changedPaths).toEqual(
      expect.arrayContaining(['lat', 'lng', `annual_data/${year}/owned_entire_period`]),
    );
    const review = await sync.handlers['sync.review']({});
    expect(review.updates).toEqual([]);
    expect(review.keptHere).toEqual([
      { localId: asset!.localId, name: asset!.doc['name'], changedPaths: expect.arrayContaining(['lat']) },
    ]);
    // An edit the service takes is pending as before; the removed field beside it is still kept here.
    const {
      views: [changed],
    } = await workspaces.handlers['workspace.edit']({
      edits: [
        { localId: other!.localId, path: 'city', value: 'Utrecht' },
        { localId: other!.localId, path: 'lat', value: 52.1 },
      ],
    });
    expect(changed?.status).toBe('modified');
    expect(changed?.keptHere).toEqual(['lat']);
    const again = await sync.handlers['sync.review']({});
    expect(again.updates).toMatchObject([{ localId: other!.localId, changedPaths: ['city'] }]);
    expect(again.updates[0]?.changes?.map((c) => c.path)).toEqual(['city']);
    expect(again.keptHere?.map((k) => [k.localId, k.changedPaths.includes('lat')])).toEqual([
      [other!.localId, true],
      [asset!.localId, true],
    ]);
    // Reloaded from the workspace (a snapshot), the asset is still kept here and not pending.
    const reloaded = (await workspaces.handlers['workspace.snapshot']({})).assets;
    expect(reloaded.find((a) => a.localId === asset!.localId)).toMatchObject({
      status: 'clean',
      keptHere: expect.arrayContaining(['lat']),
    });
    workspaces.close();
  });

  it('say offline from a typed network error when the service stops answering, and keep the work', async () => {
    const { session, workspaces, sync, notices } = await compose();
    const asset = (await workspaces.handlers['workspace.snapshot']({})).assets[0]!;
    await workspaces.handlers['workspace.edit']({
      edits: [{ localId: asset.localId, path: 'city', value: 'Utrecht' }],
    });
    await replay.close();
    const report = await sync.handlers['sync.run']({});
    expect(report.stopped).toMatchObject({ reason: 'error', offline: true });
    expect(session.state().online).toBe(false);
    // While it retried within the call's deadline, the analyst heard that the app was still trying.
    expect(notices.some((notice) => notice.includes('Still trying'))).toBe(true);
    expect((await sync.handlers['sync.review']({})).updates.map((u) => u.localId)).toEqual([asset.localId]);
    workspaces.close();
  });
});
