/**
 * The messages between the app and the embedded sandbox process (a Node child process under Node,
 * Electron's utility process in the desktop app). Types only: the launcher imports this and nothing
 * else of the sandbox.
 */

/** Passed to the process as its environment. */
export interface EmbeddedSandboxConfig {
  dataDir: string;
  assessmentYear: number;
  /** Redirect URIs the app's own OAuth application registers (loopback and oob). */
  redirectUris: string[];
  /** Speak the real service's names (`gresb_asset_id`, ...), with data of its own beside the other's. */
  realNames?: boolean;
}

export const configEnvName = 'ASSET_DESK_SANDBOX_CONFIG';

/** What the app needs of a started sandbox. */
export interface EmbeddedSandboxInfo {
  baseUrl: string;
  /** A fresh all-scope token for this run: stored tokens are hashed, so the old one cannot be shown. */
  token: string;
  entityIds: number[];
  /** The app's own OAuth application in the sandbox, so "Sign in with OAuth" can be rehearsed. */
  oauthClient: { clientId: string; clientSecret: string };
  demoUser: { email: string; password: string };
}

export type SandboxToApp = { type: 'ready'; info: EmbeddedSandboxInfo } | { type: 'failed'; message: string };
export type AppToSandbox = { type: 'stop' };
