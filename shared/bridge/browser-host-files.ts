/**
 * The browser host's routes beside the bridge that stand in for native file dialogs (served by
 * electron/browser-host/file-routes.ts, called by renderer/src/bridge/browser-files.ts).
 */
export const uploadRoute = '/bridge/files/upload';
export const downloadRoute = '/bridge/files/download';
/** As large as an import may be. */
export const uploadLimitBytes = 40 * 1024 * 1024;
