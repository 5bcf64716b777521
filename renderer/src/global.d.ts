import type { BridgeApi } from '../../shared/bridge/contract';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the browser host, whose bridge stands in. */
    assetDesk?: BridgeApi;
  }
}
