/**
 * The browser host's second secret (besides its cookie): handed to the page in the launch URL's
 * fragment, which no server ever receives, kept by the page in sessionStorage (this tab only) and
 * sent with every bridge call and the event stream. A cookie alone is not enough because cookies
 * are not scoped by port: any other server on 127.0.0.1 the browser visits receives it.
 */
export const bridgeSecretHeader = 'x-asset-desk-bridge';
/** The fragment parameter of the launch URL: `#bridge=<secret>`. */
export const bridgeSecretParam = 'bridge';
export const bridgeSecretStorageKey = 'asset-desk.bridge-secret';
/**
 * The bridge socket's subprotocol: the page offers it and its secret (`Sec-WebSocket-Protocol`, the
 * one header a browser lets a page set on a WebSocket's handshake); the host chooses this name.
 */
export const bridgeSocketProtocol = 'asset-desk.bridge';
/** Where the browser host answers the bridge's calls (a WebSocket). */
export const bridgeSocketPath = '/bridge/socket';
/** Where the browser host pushes the bridge's events (server-sent events). */
export const bridgeEventsPath = '/bridge/events';

/** The secret in a URL fragment (`#bridge=...`), if any. */
export function secretFromFragment(hash: string): string | undefined {
  const value = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash).get(bridgeSecretParam);
  return value === null || value === '' ? undefined : value;
}
