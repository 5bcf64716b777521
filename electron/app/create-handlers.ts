import type { AppInfo } from '../../shared/bridge/contract';
import type { BridgeHandlers } from '../bridge/handlers';
import { sampleAssets } from '../services/sample-assets';

export interface AppContext {
  host: AppInfo['host'];
  version: string;
}

/** Composition of the services behind the bridge; shared by Electron main and the browser host. */
export function createAppHandlers(ctx: AppContext): BridgeHandlers {
  return {
    'app.info': () => ({ name: 'Asset Desk', version: ctx.version, host: ctx.host }),
    'assets.listSample': ({ limit }) => sampleAssets(limit),
  };
}
