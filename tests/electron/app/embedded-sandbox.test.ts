/**
 * The embedded sandbox after its process dies (issue 29): the next call that needs it starts a new
 * one, on a new port with a new token, and nothing — least of all the run's bearer token — goes to a
 * port that did not just answer with the proof only the app's own child can give. The real child
 * process throughout; an impostor is a plain HTTP server on 127.0.0.1.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../electron/auth/secret-store';
import { startAppCore, type AppCore } from '../../../electron/app/app-core';
import {
  EmbeddedSandbox,
  nodeSandboxSpawner,
  type SandboxProcess,
  type SpawnSandbox,
} from '../../../electron/app/embedded-sandbox';
import { testAssessmentYear } from '../../../support/test-app';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The real spawner, keeping each child so a test can stop it behind the app's back. */
function watchedSpawner(rewrite?: (baseUrl: string, nth: number) => string): {
  spawn: SpawnSandbox;
  children: SandboxProcess[];
} {
  const real = nodeSandboxSpawner();
  const children: SandboxProcess[] = [];
  return {
    children,
    spawn: (env) => {
      const child = real(env);
      const nth = children.push(child);
      if (!rewrite) return child;
      return {
        ...child,
        onMessage: (listener) =>
          child.onMessage((message) =>
            listener(
              message.type === 'ready'
                ? { ...message, info: { ...message.info, baseUrl: rewrite(message.info.baseUrl, nth) } }
                : message,
            ),
          ),
      };
    },
  };
}

/** A local process that answers on `port` (any free one when 0) and keeps what it was sent. */
async function impostor(
  port = 0,
): Promise<{ url: string; seen: Array<{ url: string; headers: IncomingHttpHeaders }> }> {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ proof: 'f'.repeat(64), data: [] }));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(check()).toBe(true);
}

const dataDir = () => mkdtempSync(join(tmpdir(), 'asset-desk-embedded-'));

describe('the embedded sandbox', () => {
  it('whose process died is started again on the next call, on a new port and with a new token', async () => {
    const { spawn, children } = watchedSpawner();
    const sandbox = new EmbeddedSandbox({ dataDir: dataDir(), assessmentYear: testAssessmentYear, spawn });
    cleanups.push(() => sandbox.close());
    const first = await sandbox.ensure();
    children[0]?.kill();
    await until(() => sandbox.info === undefined);
    // Another local process takes the dead child's port.
    const taker = await impostor(Number(new URL(first.baseUrl).port));
    const second = await sandbox.ensure();
    expect(second.baseUrl).not.toBe(first.baseUrl);
    expect(second.token).not.toBe(first.token);
    expect(children).toHaveLength(2);
    expect(taker.seen).toEqual([]);
    expect(
      (
        await fetch(`${second.baseUrl}/api/v1/entities`, {
          headers: { authorization: `Bearer ${second.token}` },
        })
      ).status,
    ).toBe(200);
  });

  it('sends nothing but a nonce to a port that does not answer as its own child, and starts another', async () => {
    const fake = await impostor();
    // The first child's "ready" names the impostor's port, as if it had taken the child's.
    const { spawn, children } = watchedSpawner((baseUrl, nth) => (nth === 1 ? fake.url : baseUrl));
    const sandbox = new EmbeddedSandbox({ dataDir: dataDir(), assessmentYear: testAssessmentYear, spawn });
    cleanups.push(() => sandbox.close());
    const info = await sandbox.ensure();
    expect(info.baseUrl).not.toBe(fake.url);
    expect(children).toHaveLength(2);
    expect(fake.seen).toHaveLength(1);
    expect(fake.seen[0]?.url).toMatch(/^\/\.well-known\/asset-desk-sandbox\?nonce=[0-9a-f]{32}$/);
    expect(fake.seen[0]?.headers.authorization).toBeUndefined();
  });

  it("through the app: after the sandbox's process dies, the next sync runs on a new one", async () => {
    const { spawn, children } = watchedSpawner();
    const core: AppCore = await startAppCore({
      dataDir: dataDir(),
      version: 'test',
      host: 'browser',
      assessmentYear: testAssessmentYear,
      secrets: { store: new MemorySecretStore(), status: { available: true, backend: 'keychain' } },
      spawnSandbox: spawn,
    });
    cleanups.push(() => core.close());
    await core.connected;
    const before = core.sandbox.baseUrl;
    const snapshot = await core.handlers['workspace.snapshot']({});
    const asset = snapshot.assets[0];
    expect(asset).toBeDefined();
    children[0]?.kill();
    await until(() => core.sandbox.info === undefined);
    const taker = await impostor(Number(new URL(before).port));
    await core.handlers['workspace.edit']({
      edits: [{ localId: asset?.localId as string, path: 'address', value: 'Moved port' }],
    });
    const report = await core.handlers['sync.run']({});
    expect(report.stopped).toBeUndefined();
    expect((await core.handlers['sync.review']({})).updates).toEqual([]);
    expect(core.sandbox.baseUrl).not.toBe(before);
    expect(taker.seen).toEqual([]);
    expect((await core.handlers['session.get']({})).connections.find((c) => c.active)?.baseUrl).toBe(
      core.sandbox.baseUrl,
    );
  }, 60_000);
});
