import {
  bridgeMethodNames,
  isBridgeEventName,
  type BridgeApi,
  type BridgeEventName,
  type EventPayload,
} from '../../../shared/bridge/contract';
import {
  bridgeEventsPath,
  bridgeSecretHeader,
  bridgeSecretStorageKey,
  secretFromFragment,
} from '../../../shared/bridge/browser-host-secret';
import { createSocketCalls } from './socket-calls';

type Listener = (payload: unknown) => void;

/**
 * The browser host's per-run bridge secret: taken from the launch URL's fragment on first load
 * (then removed from the address bar and history), kept in sessionStorage so a reload of this tab
 * still has it. The host's cookie alone does not authenticate a bridge call: other servers on
 * 127.0.0.1 receive that cookie too.
 */
function bridgeSecret(): string {
  const fromFragment = secretFromFragment(window.location.hash);
  if (fromFragment !== undefined) {
    window.sessionStorage.setItem(bridgeSecretStorageKey, fromFragment);
    window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
  }
  return window.sessionStorage.getItem(bridgeSecretStorageKey) ?? '';
}

const reconnectDelayMs = 1000;

/**
 * The bridge over the browser host: its socket for calls (`socket-calls.ts`), one event stream for
 * pushes. Generated from the contract's method list like the preload, so both hosts offer the
 * renderer the same surface.
 * The event stream is read with fetch rather than EventSource, which cannot send the secret's header.
 */
export function createHttpBridge(): BridgeApi {
  const secret = bridgeSecret();
  const call = createSocketCalls(secret);
  const methods = Object.fromEntries(
    bridgeMethodNames.map((name) => [name, (args: unknown) => call(name, args)]),
  ) as BridgeApi['methods'];

  const listeners = new Map<BridgeEventName, Set<Listener>>();
  const deliver = (data: string) => {
    const frame = JSON.parse(data) as { name?: unknown; payload?: unknown };
    if (!isBridgeEventName(frame.name)) return;
    for (const listener of listeners.get(frame.name) ?? []) listener(frame.payload);
  };

  let streaming = false;
  const readStream = async (): Promise<void> => {
    const response = await fetch(bridgeEventsPath, {
      headers: { [bridgeSecretHeader]: secret, Accept: 'text/event-stream' },
      credentials: 'same-origin',
    });
    if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      // Server-sent events: frames end with a blank line; our frames are single `data:` lines.
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const line of frame.split('\n')) if (line.startsWith('data: ')) deliver(line.slice(6));
        end = buffer.indexOf('\n\n');
      }
    }
  };
  const ensureStream = () => {
    if (streaming) return;
    streaming = true;
    // Like EventSource: a dropped stream is opened again after a pause.
    const loop = (): void =>
      void readStream()
        .catch(() => undefined)
        .then(() => setTimeout(loop, reconnectDelayMs));
    loop();
  };

  return {
    methods,
    on<N extends BridgeEventName>(name: N, listener: (payload: EventPayload<N>) => void) {
      ensureStream();
      const set = listeners.get(name) ?? new Set<Listener>();
      listeners.set(name, set);
      const wrapped = listener as Listener;
      set.add(wrapped);
      return () => void set.delete(wrapped);
    },
  };
}
