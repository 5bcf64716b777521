/**
 * Decisions of the Electron shell kept out of main.ts so they run and are tested in plain Node
 * (main.ts, the only importer of Electron, just applies them).
 */

/**
 * The dev server the window loads instead of the built renderer: electron-vite's `dev` sets
 * `ELECTRON_RENDERER_URL`. Honoured only in an unpackaged build, and only as an http(s) address on
 * this machine: in a packaged app an environment variable must never decide what code gets the
 * bridge.
 */
export function rendererDevServerUrl(
  env: Record<string, string | undefined>,
  isPackaged: boolean,
): string | undefined {
  const raw = env['ELECTRON_RENDERER_URL'];
  if (isPackaged || raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return (url.protocol === 'http:' || url.protocol === 'https:') && loopback ? url.href : undefined;
}

/**
 * The renderer needs no permission at all (camera, notifications, HID, USB, serial, clipboard
 * read...): every request, every check and every device selection is refused.
 */
export const permissionPolicy = {
  request: (_permission: string): boolean => false,
  check: (_permission: string): boolean => false,
  device: (_deviceType: string): boolean => false,
} as const;
