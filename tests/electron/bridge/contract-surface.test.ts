/**
 * Preload, main and the browser host must offer exactly the contract's methods. Electron itself is
 * replaced by a recorder here (no Electron binary can run on CI machines); our modules run for real.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bridgeEventNames, bridgeMethodNames, invokeChannel } from '../../../shared/bridge/contract';
import type { BrowserHost } from '../../../electron/browser-host/server';
import { hostCookie, openBridgeSocket } from '../../support/bridge-socket';
import { startTestApp, type TestApp } from '../../../support/test-app';

type Handler = (event: { senderFrame?: { url: string } }, args: unknown) => unknown;

const recorded = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as Array<{ channel: string; args: unknown }>,
  handlers: new Map<string, Handler>(),
  windows: [] as Array<{ webPreferences: Record<string, unknown> }>,
  menu: null as unknown,
  userData: '',
  permissions: {} as Record<'request' | 'check' | 'device', ((...args: never[]) => unknown) | undefined>,
}));

vi.mock('electron', () => {
  const contents = { on: () => undefined, setWindowOpenHandler: () => undefined, send: () => undefined };
  class BrowserWindow {
    webContents = contents;
    constructor(options: { webPreferences: Record<string, unknown> }) {
      recorded.windows.push(options);
    }
    once() {}
    on() {}
    loadFile() {
      return Promise.resolve();
    }
    loadURL() {
      return Promise.resolve();
    }
  }
  return {
    contextBridge: { exposeInMainWorld: (key: string, value: unknown) => recorded.exposed.set(key, value) },
    ipcRenderer: {
      invoke: async (channel: string, args: unknown) => {
        recorded.invoked.push({ channel, args });
        return { ok: true, result: channel };
      },
      on: () => undefined,
      removeListener: () => undefined,
    },
    ipcMain: { handle: (channel: string, handler: Handler) => recorded.handlers.set(channel, handler) },
    app: {
      on: () => undefined,
      getVersion: () => '0.0.0-test',
      getPath: () => recorded.userData,
      isPackaged: false,
      requestSingleInstanceLock: () => true,
      whenReady: () => Promise.resolve(),
      quit: () => undefined,
    },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: () => undefined },
        setPermissionRequestHandler: (handler: (...args: never[]) => unknown) =>
          void (recorded.permissions.request = handler),
        setPermissionCheckHandler: (handler: (...args: never[]) => unknown) =>
          void (recorded.permissions.check = handler),
        setDevicePermissionHandler: (handler: (...args: never[]) => unknown) =>
          void (recorded.permissions.device = handler),
      },
    },
    shell: { openExternal: () => Promise.resolve() },
    dialog: { showOpenDialog: () => Promise.resolve({ canceled: true, filePaths: [] }) },
    Menu: {
      buildFromTemplate: (template: unknown) => template,
      setApplicationMenu: (menu: unknown) => void (recorded.menu = menu),
    },
    BrowserWindow,
  };
});

describe('bridge surface', () => {
  let app: TestApp;
  let host: BrowserHost;

  beforeAll(async () => {
    app = await startTestApp();
    host = app.host;
    recorded.userData = mkdtempSync(join(tmpdir(), 'asset-desk-main-'));
  });
  afterAll(() => app?.close());

  it('the contract lists methods and events', () => {
    expect(bridgeMethodNames.length).toBeGreaterThan(0);
    expect(bridgeEventNames.length).toBeGreaterThan(0);
  });

  it('preload exposes exactly the contract methods, each invoking its own channel', async () => {
    await import('../../../electron/preload');
    const api = recorded.exposed.get('assetDesk') as {
      methods: Record<string, (args: unknown) => Promise<unknown>>;
      on: unknown;
    };
    expect([...recorded.exposed.keys()]).toEqual(['assetDesk']);
    expect(Object.keys(api).sort()).toEqual(['methods', 'on']);
    expect(Object.keys(api.methods).sort()).toEqual([...bridgeMethodNames].sort());
    for (const name of bridgeMethodNames) {
      await expect(api.methods[name]?.({})).resolves.toBe(invokeChannel(name));
    }
    expect(recorded.invoked.map((call) => call.channel)).toEqual(bridgeMethodNames.map(invokeChannel));
  });

  it('main registers a handler for exactly the contract methods and checks the sender', async () => {
    await import('../../../electron/main');
    // main starts its app core (embedded sandbox included) once Electron is ready.
    await vi.waitFor(() => expect(recorded.handlers.size).toBeGreaterThan(0), { timeout: 20_000 });
    expect([...recorded.handlers.keys()].sort()).toEqual(bridgeMethodNames.map(invokeChannel).sort());

    const handler = recorded.handlers.get(invokeChannel('app.info'));
    expect(await handler?.({ senderFrame: { url: 'https://evil.example/' } }, {})).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'Untrusted sender' },
    });
    expect(await handler?.({}, {})).toMatchObject({ ok: false });
    // Under vitest main resolves its page next to its source (electron/../renderer/index.html).
    const ownPage = new URL('../../../renderer/index.html', import.meta.url).href;
    expect(await handler?.({ senderFrame: { url: ownPage } }, {})).toEqual({
      ok: true,
      result: { name: 'Asset Desk', version: '0.0.0-test', host: 'electron', fileDialogs: true },
    });
    expect(await handler?.({ senderFrame: { url: `${ownPage}/../other.html` } }, {})).toMatchObject({
      ok: false,
    });
  });

  it('main opens its window sandboxed, isolated and without Node', () => {
    const prefs = recorded.windows[0]?.webPreferences;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
  });

  it("main's menu has no Reload, whose Ctrl+R is the grids' fill right", () => {
    const roles = JSON.stringify(recorded.menu);
    expect(roles).toContain('editMenu');
    expect(roles).not.toMatch(/"role":"(force)?reload"/i);
  });

  it('main refuses every permission request, check and device choice', () => {
    const { request, check, device } = recorded.permissions as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    const answers: unknown[] = [];
    request?.({}, 'media', (allowed: unknown) => answers.push(allowed));
    request?.({}, 'notifications', (allowed: unknown) => answers.push(allowed));
    expect(answers).toEqual([false, false]);
    expect(check?.({}, 'clipboard-read', 'file://', {})).toBe(false);
    expect(check?.({}, 'hid', 'file://', {})).toBe(false);
    expect(device?.({ deviceType: 'usb', origin: 'file://', device: {} })).toBe(false);
    expect(device?.({ deviceType: 'serial', origin: 'file://', device: {} })).toBe(false);
  });

  it('the browser host answers exactly the contract methods', async () => {
    const socket = await openBridgeSocket(host, { cookie: await hostCookie(host) });
    // Every contract method reaches the dispatcher: with empty arguments it answers, or says which
    // arguments are missing; a name outside the contract is not found.
    for (const name of bridgeMethodNames) {
      const answer = await socket.call(name);
      if (!answer.ok) expect(answer.error.code, name).toBe('bad_request');
    }
    expect(await socket.call('not.in.contract')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    socket.close();
  });
});
