import type { BridgeApi } from '../../../shared/bridge/contract';
import { createHttpBridge } from './http-bridge';

export const bridge: BridgeApi = window.assetDesk ?? createHttpBridge();
