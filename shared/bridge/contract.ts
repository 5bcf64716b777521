/**
 * The one contract of the bridge between the renderer and its host (Electron main, or the browser
 * host). Preload, main's handler registration, the browser host and the renderer's HTTP client all
 * iterate `bridgeMethods` / `bridgeEvents`, so adding a method here is the only way to add one.
 *
 * Arguments cross a trust boundary (a compromised renderer can send anything), so each method carries
 * a zod schema that hosts parse with before a handler sees the value. Results flow the other way and
 * are only typed.
 */
import { z } from 'zod';
import type { SampleAssetRow, AppInfo } from './types';

export type { SampleAssetRow, AppInfo } from './types';

interface MethodSpec<Args extends z.ZodType, Result> {
  readonly args: Args;
  /** Phantom: carries the result type only. */
  readonly result?: Result;
}

interface EventSpec<Payload> {
  /** Phantom: carries the payload type only. */
  readonly payload?: Payload;
}

function method<Result>() {
  return <Args extends z.ZodType>(args: Args): MethodSpec<Args, Result> => ({ args });
}

function event<Payload>(): EventSpec<Payload> {
  return {};
}

const noArgs = z.object({}).strict();

export const bridgeMethods = {
  'app.info': method<AppInfo>()(noArgs),
  'assets.listSample': method<SampleAssetRow[]>()(
    z.object({ limit: z.number().int().min(1).max(100_000).optional() }).strict(),
  ),
} as const;

export const bridgeEvents = {
  'app.notice': event<{ level: 'info' | 'warning' | 'error'; message: string }>(),
} as const;

export type BridgeMethods = typeof bridgeMethods;
export type BridgeMethodName = keyof BridgeMethods;
export type BridgeEvents = typeof bridgeEvents;
export type BridgeEventName = keyof BridgeEvents;

export type MethodArgs<N extends BridgeMethodName> = z.input<BridgeMethods[N]['args']>;
export type ParsedArgs<N extends BridgeMethodName> = z.output<BridgeMethods[N]['args']>;
export type MethodResult<N extends BridgeMethodName> = NonNullable<BridgeMethods[N]['result']>;
export type EventPayload<N extends BridgeEventName> = NonNullable<BridgeEvents[N]['payload']>;

export const bridgeMethodNames = Object.keys(bridgeMethods) as BridgeMethodName[];
export const bridgeEventNames = Object.keys(bridgeEvents) as BridgeEventName[];

/** What the renderer sees as `window.assetDesk`, whichever host it runs in. */
export interface BridgeApi {
  methods: { [N in BridgeMethodName]: (args: MethodArgs<N>) => Promise<MethodResult<N>> };
  on<N extends BridgeEventName>(name: N, listener: (payload: EventPayload<N>) => void): () => void;
}

/** IPC channel names; one prefix per direction so a listener can never be mistaken for a handler. */
export const invokeChannel = (name: BridgeMethodName): string => `bridge:invoke:${name}`;
export const eventChannel = (name: BridgeEventName): string => `bridge:event:${name}`;

export function isBridgeMethodName(value: unknown): value is BridgeMethodName {
  return typeof value === 'string' && Object.hasOwn(bridgeMethods, value);
}

export function isBridgeEventName(value: unknown): value is BridgeEventName {
  return typeof value === 'string' && Object.hasOwn(bridgeEvents, value);
}

/** Errors cross the bridge as plain data: Electron strips custom error fields, HTTP has no classes. */
export interface BridgeErrorBody {
  code: 'bad_request' | 'not_found' | 'forbidden' | 'internal';
  message: string;
}
