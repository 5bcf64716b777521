/**
 * The messages between the app and the embedded sandbox process (a Node child process under Node,
 * Electron's utility process in the desktop app), and how the app knows that a port is answered by
 * its own child. The launcher imports this and nothing else of the sandbox.
 */
import { createHmac } from 'node:crypto';

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
  /**
   * This run's key for the identity check, sent only over the process's own channel: the child
   * answers a nonce at `identityPath` with `identityProof(key, nonce)`, which nothing else that
   * binds the port (once the child is gone) can compute.
   */
  identityKey: string;
}

/** Where the child answers `?nonce=` with its proof (no token needed, none sent). */
export const identityPath = '/.well-known/asset-desk-sandbox';

export const identityProof = (key: string, nonce: string): string =>
  createHmac('sha256', key).update(nonce).digest('hex');

export type SandboxToApp = { type: 'ready'; info: EmbeddedSandboxInfo } | { type: 'failed'; message: string };
export type AppToSandbox = { type: 'stop' };
