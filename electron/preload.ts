/**
 * The preload exposes exactly the contract: one invoker per method and a subscription per event,
 * generated from the contract's lists. ipcRenderer itself never reaches the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  bridgeMethodNames,
  eventChannel,
  invokeChannel,
  isBridgeEventName,
  type BridgeApi,
  type BridgeEventName,
  type EventPayload,
} from '../shared/bridge/contract';
import { unwrapEnvelope } from '../shared/bridge/envelope';

const methods = Object.fromEntries(
  bridgeMethodNames.map((name) => [
    name,
    async (args: unknown) => unwrapEnvelope(await ipcRenderer.invoke(invokeChannel(name), args)),
  ]),
) as BridgeApi['methods'];

const api: BridgeApi = {
  methods,
  on<N extends BridgeEventName>(name: N, listener: (payload: EventPayload<N>) => void) {
    if (!isBridgeEventName(name)) throw new Error(`Unknown bridge event: ${String(name)}`);
    const channel = eventChannel(name);
    const wrapped = (_event: IpcRendererEvent, payload: EventPayload<N>) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => void ipcRenderer.removeListener(channel, wrapped);
  },
};

contextBridge.exposeInMainWorld('assetDesk', api);
