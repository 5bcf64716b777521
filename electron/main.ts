/**
 * The composition root of the desktop app: the only main-process module that imports Electron.
 * Everything it wires is plain Node under electron/, tested without Electron.
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  session,
  shell,
  utilityProcess,
  type WebContents,
} from 'electron';
import { fileURLToPath } from 'node:url';
import {
  bridgeMethodNames,
  eventChannel,
  invokeChannel,
  type BridgeEventName,
  type EventPayload,
} from '../shared/bridge/contract';
import { contentSecurityPolicy } from '../shared/bridge/csp';
import { startAppCore, type AppCore } from './app/app-core';
import type { SandboxProcess, SpawnSandbox } from './app/embedded-sandbox';
import { createDispatcher, dispatchToEnvelope } from './bridge/dispatch';
import type { EventSink } from './bridge/handlers';
import { createSenderCheck, isExternalWebUrl } from './security/trusted-sender';
import { permissionPolicy, rendererDevServerUrl } from './security/shell-policy';

const rendererFile = fileURLToPath(new URL('../renderer/index.html', import.meta.url));
const preloadFile = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
/** The embedded sandbox's entry, built beside main (electron.vite.config.ts). */
const sandboxFile = fileURLToPath(new URL('./sandbox.js', import.meta.url));
const devServerUrl = rendererDevServerUrl(process.env, app.isPackaged);
const isTrustedSender = createSenderCheck({ rendererFile, devServerUrl });

let mainWindow: BrowserWindow | undefined;

/** Registers one handler per contract method; each checks the sending frame before dispatching. */
export function registerBridge(dispatch: ReturnType<typeof createDispatcher>): void {
  for (const name of bridgeMethodNames) {
    ipcMain.handle(invokeChannel(name), (event, rawArgs: unknown) => {
      if (!isTrustedSender(event.senderFrame?.url)) {
        return { ok: false, error: { code: 'forbidden', message: 'Untrusted sender' } };
      }
      return dispatchToEnvelope(dispatch, name, rawArgs);
    });
  }
}

export const windowEvents: EventSink = {
  emit<N extends BridgeEventName>(name: N, payload: EventPayload<N>) {
    mainWindow?.webContents.send(eventChannel(name), payload);
  },
};

/** No navigation, no new windows; web links go to the system browser, anything else nowhere. */
function lockNavigation(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isTrustedSender(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1366,
    height: 768,
    minWidth: 1024,
    minHeight: 640,
    title: 'Asset Desk',
    show: false,
    webPreferences: {
      preload: preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  if (devServerUrl) void win.loadURL(devServerUrl);
  else void win.loadFile(rendererFile);
  return win;
}

let core: AppCore | undefined;

/** The embedded sandbox in Electron's utility process: Node without the app's window or secrets. */
const spawnSandbox: SpawnSandbox = (env): SandboxProcess => {
  const child = utilityProcess.fork(sandboxFile, [], {
    env: { ...process.env, ...env },
    serviceName: 'Asset Desk local sandbox',
    stdio: 'inherit',
  });
  return {
    onMessage: (listener) =>
      child.on('message', (message) => listener(message as Parameters<typeof listener>[0])),
    onExit: (listener) => child.on('exit', (code) => listener(code)),
    send: (message) => child.postMessage(message),
    kill: () => void child.kill(),
  };
};

async function start(): Promise<void> {
  const dataDir = app.getPath('userData');
  core = await startAppCore({
    dataDir,
    version: app.getVersion(),
    host: 'electron',
    spawnSandbox,
    openBrowser: (url) => (isExternalWebUrl(url) ? shell.openExternal(url) : Promise.resolve()),
    pickSaveFile: async ({ defaultName, extensions }) => {
      const options = { defaultPath: defaultName, filters: [{ name: 'Files', extensions }] };
      const result = mainWindow
        ? await dialog.showSaveDialog(mainWindow, options)
        : await dialog.showSaveDialog(options);
      return result.canceled ? undefined : result.filePath;
    },
    // Only files the user chose here can be read for the renderer: it never names a path itself.
    pickFile: async ({ extensions }) => {
      const options = { properties: ['openFile' as const], filters: [{ name: 'Files', extensions }] };
      const result = mainWindow
        ? await dialog.showOpenDialog(mainWindow, options)
        : await dialog.showOpenDialog(options);
      return result.canceled ? undefined : result.filePaths[0];
    },
  });
  registerBridge(createDispatcher(core.handlers));
  core.events.attach(windowEvents);

  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy] },
    });
  });
  // The renderer needs no device, camera, notification or other permission: requests, checks and
  // device choices are all refused (electron/security/shell-policy.ts).
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(permissionPolicy.request(permission)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission) =>
    permissionPolicy.check(permission),
  );
  session.defaultSession.setDevicePermissionHandler((details) => permissionPolicy.device(details.deviceType));

  // Electron's default menu reloads on Ctrl+R, the grids' fill right: the same menus without Reload.
  Menu.setApplicationMenu(
    Menu.buildFromTemplate([
      ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
      { role: 'fileMenu' },
      { role: 'editMenu' },
      {
        label: 'View',
        submenu: [
          { role: 'toggleDevTools' },
          { type: 'separator' },
          { role: 'resetZoom' },
          { role: 'zoomIn' },
          { role: 'zoomOut' },
          { type: 'separator' },
          { role: 'togglefullscreen' },
        ],
      },
      { role: 'windowMenu' },
    ]),
  );
  mainWindow = createWindow();
  mainWindow.on('closed', () => {
    mainWindow = undefined;
  });
}

app.on('web-contents-created', (_event, contents) => lockNavigation(contents));
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
app.on('will-quit', () => {
  void core?.close();
});
app.on('activate', () => {
  if (!mainWindow) mainWindow = createWindow();
});

if (app.requestSingleInstanceLock()) {
  void app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('Asset Desk could not start:', error);
      app.quit();
    });
} else {
  app.quit();
}
