import { pathToFileURL } from 'node:url';

/**
 * Decides whether an IPC message comes from our own renderer page. Main checks the sending frame's
 * URL on every call (as VS Code's validatedIpcMain does), so a navigated-away or injected frame cannot
 * reach the handlers even if navigation locking were bypassed.
 */
export function createSenderCheck(opts: { rendererFile: string; devServerUrl?: string | undefined }) {
  const fileUrl = pathToFileURL(opts.rendererFile).href;
  const devOrigin = opts.devServerUrl ? new URL(opts.devServerUrl).origin : undefined;
  return (frameUrl: string | undefined): boolean => {
    if (!frameUrl) return false;
    let url: URL;
    try {
      url = new URL(frameUrl);
    } catch {
      return false;
    }
    if (devOrigin !== undefined && url.origin === devOrigin) return true;
    return url.protocol === 'file:' && url.host === '' && `file://${url.pathname}` === fileUrl;
  };
}

/** Only web links leave the app, and only to the system browser. */
export function isExternalWebUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
