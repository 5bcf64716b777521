import { z } from 'zod';
import { randomUrlToken } from './pkce';
import { errorMessage } from '../../shared/errors';

export const tokenKinds = ['partner', 'oauth', 'sandbox'] as const;
export type TokenKind = (typeof tokenKinds)[number];

/** An access token and what the app knows about it. Lives in main only; never crosses the bridge. */
export interface StoredToken {
  accessToken: string;
  kind: TokenKind;
  scopes: string[];
  /** ISO date-time; null when unknown (a partner token whose expiry the user did not enter). */
  expiresAt: string | null;
  obtainedAt: string;
}

const storedTokenSchema = z.object({
  v: z.literal(1),
  accessToken: z.string().min(1),
  kind: z.enum(tokenKinds),
  scopes: z.array(z.string()),
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  obtainedAt: z.iso.datetime({ offset: true }),
});

export interface SecretStore {
  readonly backend: 'keychain' | 'memory';
  save(connectionId: string, token: StoredToken): Promise<void>;
  read(connectionId: string): Promise<StoredToken | null>;
  /** True when there was something to delete. */
  delete(connectionId: string): Promise<boolean>;
}

export type SecretStoreStatus =
  | { available: true; backend: 'keychain' }
  | { available: false; backend: 'memory'; reason: string; message: string };

/** The part of keytar this module uses; tests and the probe can hand in another implementation. */
export interface KeychainApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

const account = 'access-token';
const connectionIdPattern = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** One keychain service per connection, so signing out of one never touches another's secret. */
export function keychainService(connectionId: string): string {
  if (!connectionIdPattern.test(connectionId)) throw new Error(`Invalid connection id: ${connectionId}`);
  return `asset-desk:${connectionId}`;
}

export class SecretStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SecretStoreError';
  }
}

export class KeytarSecretStore implements SecretStore {
  readonly backend = 'keychain';
  constructor(private readonly keychain: KeychainApi) {}

  async save(connectionId: string, token: StoredToken): Promise<void> {
    const blob = JSON.stringify({ v: 1, ...pickToken(token) });
    await this.call('save the sign-in to', () =>
      this.keychain.setPassword(keychainService(connectionId), account, blob),
    );
  }

  async read(connectionId: string): Promise<StoredToken | null> {
    const blob = await this.call('read the sign-in from', () =>
      this.keychain.getPassword(keychainService(connectionId), account),
    );
    if (blob === null) return null;
    // A value another version (or another program) wrote in a shape we cannot read counts as signed out.
    const parsed = storedTokenSchema.safeParse(safeJson(blob));
    if (!parsed.success) return null;
    const { v: _v, ...token } = parsed.data;
    return token;
  }

  async delete(connectionId: string): Promise<boolean> {
    return this.call('delete the sign-in from', () =>
      this.keychain.deletePassword(keychainService(connectionId), account),
    );
  }

  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new SecretStoreError(`Could not ${what} the system keychain: ${errorMessage(error)}`, {
        cause: error,
      });
    }
  }
}

/** Session-only fallback: the token lives in this process's memory and dies with it. */
export class MemorySecretStore implements SecretStore {
  readonly backend = 'memory';
  private readonly tokens = new Map<string, StoredToken>();

  async save(connectionId: string, token: StoredToken): Promise<void> {
    keychainService(connectionId);
    this.tokens.set(connectionId, pickToken(token));
  }

  async read(connectionId: string): Promise<StoredToken | null> {
    const token = this.tokens.get(connectionId);
    return token ? { ...token, scopes: [...token.scopes] } : null;
  }

  async delete(connectionId: string): Promise<boolean> {
    return this.tokens.delete(connectionId);
  }
}

export interface OpenSecretStoreOptions {
  /** Defaults to keytar, loaded lazily so a missing native module or libsecret is a fallback, not a crash. */
  keychain?: KeychainApi;
  /** A Secret Service that exists but never answers (a hung prompt) must not block start-up forever. */
  probeTimeoutMs?: number;
}

/**
 * Probes the keychain with a throwaway write, read and delete (a locked or absent Secret Service
 * fails one of them) and answers with the keychain store, or the memory store and a plain reason.
 */
export async function openSecretStore(
  options: OpenSecretStoreOptions = {},
): Promise<{ store: SecretStore; status: SecretStoreStatus }> {
  const timeoutMs = options.probeTimeoutMs ?? 15_000;
  try {
    const keychain = options.keychain ?? (await loadKeytar());
    await withTimeout(probe(keychain), timeoutMs, `the Secret Service did not answer within ${timeoutMs} ms`);
    return { store: new KeytarSecretStore(keychain), status: { available: true, backend: 'keychain' } };
  } catch (error) {
    const reason = errorMessage(error);
    return {
      store: new MemorySecretStore(),
      status: {
        available: false,
        backend: 'memory',
        reason,
        message:
          `The system keychain is unavailable (no Secret Service answered: ${reason}). ` +
          'Your sign-in is kept in memory for this session only and is not saved to disk; ' +
          'you will have to sign in again after restarting Asset Desk.',
      },
    };
  }
}

async function loadKeytar(): Promise<KeychainApi> {
  const mod = await import('keytar');
  return mod.default;
}

async function probe(keychain: KeychainApi): Promise<void> {
  const service = 'asset-desk:probe';
  const probeAccount = `probe-${process.pid}-${randomUrlToken(6)}`;
  const value = randomUrlToken(16);
  await keychain.setPassword(service, probeAccount, value);
  try {
    const back = await keychain.getPassword(service, probeAccount);
    if (back !== value) throw new Error('the keychain did not return what was saved');
  } finally {
    await keychain.deletePassword(service, probeAccount).catch(() => false);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function pickToken(token: StoredToken): StoredToken {
  return {
    accessToken: token.accessToken,
    kind: token.kind,
    scopes: [...token.scopes],
    expiresAt: token.expiresAt,
    obtainedAt: token.obtainedAt,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
