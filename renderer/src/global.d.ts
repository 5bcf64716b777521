import type { BridgeApi } from '../../shared/bridge/contract';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the browser host, where the HTTP bridge stands in. */
    assetDesk?: BridgeApi;
  }
}
