import type {
  BridgeEventName,
  BridgeMethodName,
  EventPayload,
  MethodResult,
  ParsedArgs,
} from '../../shared/bridge/contract';

/** One typed handler per contract entry: a missing or mistyped handler is a compile error. */
export type BridgeHandlers = {
  [N in BridgeMethodName]: (args: ParsedArgs<N>) => Promise<MethodResult<N>> | MethodResult<N>;
};

/** Where main pushes events: the Electron window, or the browser host's event stream. */
export interface EventSink {
  emit<N extends BridgeEventName>(name: N, payload: EventPayload<N>): void;
}
