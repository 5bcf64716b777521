import {
  bridgeMethodNames,
  isBridgeEventName,
  type BridgeApi,
  type BridgeEventName,
  type EventPayload,
} from '../../../shared/bridge/contract';
import { unwrapEnvelope } from '../../../shared/bridge/envelope';

type Listener = (payload: unknown) => void;

/**
 * The bridge over the browser host: one POST per call, one event stream for pushes. Generated from
 * the contract's method list like the preload, so both hosts offer the renderer the same surface.
 * The host authenticates by an HttpOnly cookie, so no secret is visible to this code.
 */
export function createHttpBridge(): BridgeApi {
  const methods = Object.fromEntries(
    bridgeMethodNames.map((name) => [
      name,
      async (args: unknown) => {
        const response = await fetch(`/bridge/invoke/${name}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(args ?? {}),
          credentials: 'same-origin',
        });
        return unwrapEnvelope(await response.json());
      },
    ]),
  ) as BridgeApi['methods'];

  const listeners = new Map<BridgeEventName, Set<Listener>>();
  let source: EventSource | undefined;
  const ensureStream = () => {
    if (source) return;
    source = new EventSource('/bridge/events');
    source.onmessage = (message: MessageEvent<string>) => {
      const frame = JSON.parse(message.data) as { name?: unknown; payload?: unknown };
      if (!isBridgeEventName(frame.name)) return;
      for (const listener of listeners.get(frame.name) ?? []) listener(frame.payload);
    };
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
