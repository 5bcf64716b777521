import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  assetIdNames,
  assumedIdName,
  serviceIdName,
  specIdName,
  type AssetIdName,
  type AssetIdNameState,
} from '../../shared/sync/asset-id-name';
import { randomUrlToken } from './pkce';

/**
 * A named Submission Service target. `baseUrl` serves /api/v1 and /api/v0; `portalUrl` hosts the
 * authorize page; `authUrl` the token endpoints. No secrets here: tokens live in the SecretStore.
 * `assetIds`: the name its service gives the asset id (shared/sync/asset-id-name.ts), stated by a
 * preset or a built-in sandbox, learned from its answers, or assumed until then.
 */
export interface Connection {
  id: string;
  name: string;
  kind: 'local-sandbox' | 'custom';
  baseUrl: string;
  portalUrl: string;
  authUrl: string;
  assetIds: AssetIdNameState;
}

export const localSandboxId = 'local-sandbox';
/** The second built-in sandbox: the same service speaking the real service's names. */
export const localSandboxRealNamesId = 'local-sandbox-real-names';
export type LocalSandboxId = typeof localSandboxId | typeof localSandboxRealNamesId;
export const localSandboxIds: readonly string[] = [localSandboxId, localSandboxRealNamesId];

/** The embedded service listens on an ephemeral port, so its URLs are known only once it is up. */
export function localSandboxConnection(origin: string, id: LocalSandboxId = localSandboxId): Connection {
  const base = normaliseUrl(origin);
  const realNames = id === localSandboxRealNamesId;
  return {
    id,
    name: realNames ? "Local sandbox (real service's names)" : 'Local sandbox',
    kind: 'local-sandbox',
    baseUrl: base,
    portalUrl: base,
    authUrl: base,
    assetIds: { name: realNames ? serviceIdName : specIdName, source: 'stated' },
  };
}

/** `{base}/api/{version}{path}`; path starts with a slash. */
export function apiUrl(connection: Pick<Connection, 'baseUrl'>, version: 'v1' | 'v0', path: string): string {
  return `${connection.baseUrl}/api/${version}${path}`;
}

/**
 * The spec says every call uses HTTPS; plain http is allowed only to this machine (the embedded
 * sandbox, or a developer's local service), where there is no network to eavesdrop on.
 */
const serviceUrl = z
  .string()
  .trim()
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Not a URL' });
      return z.NEVER;
    }
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
      ctx.addIssue({ code: 'custom', message: 'Use an https:// address (http:// only for this computer)' });
      return z.NEVER;
    }
    if (url.username || url.password || url.search || url.hash) {
      ctx.addIssue({
        code: 'custom',
        message: 'The address must not carry credentials, a query or a fragment',
      });
      return z.NEVER;
    }
    return normaliseUrl(url.href);
  });

const assetIdNameSchema = z.enum(assetIdNames as [AssetIdName, ...AssetIdName[]]);

export const customConnectionInputSchema = z
  .object({
    name: z.string().trim().min(1).max(80),
    baseUrl: serviceUrl,
    portalUrl: serviceUrl,
    authUrl: serviceUrl,
    /** Stated by a preset (the real service's): the name its service gives the asset id. */
    assetIdName: assetIdNameSchema.optional(),
  })
  .strict();
export type CustomConnectionInput = z.input<typeof customConnectionInputSchema>;

const storedConnectionSchema = z
  .object({
    id: z.string().regex(/^custom-[a-z0-9-]{1,40}$/),
    name: z.string(),
    baseUrl: serviceUrl,
    portalUrl: serviceUrl,
    authUrl: serviceUrl,
    // Absent in files written before the name was kept: assumed until the service's answers show it.
    assetIds: z
      .object({ name: assetIdNameSchema, source: z.enum(['stated', 'learned', 'assumed']) })
      .strict()
      .optional(),
  })
  .strict();
type StoredConnection = z.infer<typeof storedConnectionSchema>;

const fileSchema = z
  .object({
    version: z.literal(1),
    activeId: z.string().nullable(),
    custom: z.array(storedConnectionSchema),
  })
  .strict();
type ConnectionsFile = z.infer<typeof fileSchema>;

export interface ConnectionRegistry {
  list(): Connection[];
  get(id: string): Connection | undefined;
  /** The connection the app works against; the local sandbox on first start. */
  active(): Connection;
  setActive(id: string): Promise<Connection>;
  addCustom(input: CustomConnectionInput): Promise<Connection>;
  updateCustom(id: string, input: CustomConnectionInput): Promise<Connection>;
  removeCustom(id: string): Promise<void>;
  /** A local sandbox's address, once its process has started (its port changes per run). */
  setSandboxOrigin(origin: string, id?: LocalSandboxId): Connection;
  /** What a connection's answers showed of its asset id's name; kept for a custom connection. */
  learnAssetIdName(id: string, state: AssetIdNameState): Promise<void>;
}

export const connectionsFileName = 'connections.json';

/**
 * Loads `{dataDir}/connections.json` (missing or unreadable: a fresh start with only the local
 * sandbox) and writes it back atomically on every change.
 */
export async function openConnectionRegistry(opts: {
  dataDir: string;
  /** Until the embedded sandbox has started, its connection points at loopback with no port. */
  sandboxOrigin?: string;
}): Promise<ConnectionRegistry> {
  const file = join(opts.dataDir, connectionsFileName);
  const sandboxes = new Map<string, Connection>(
    ([localSandboxId, localSandboxRealNamesId] as const).map((id) => [
      id,
      localSandboxConnection(opts.sandboxOrigin ?? 'http://127.0.0.1', id),
    ]),
  );
  let state: ConnectionsFile = await load(file);

  const toConnection = ({ assetIds, ...c }: StoredConnection): Connection => ({
    ...c,
    kind: 'custom',
    assetIds: assetIds ?? assumedIdName,
  });
  const list = (): Connection[] => [...sandboxes.values(), ...state.custom.map(toConnection)];
  const get = (id: string): Connection | undefined => list().find((c) => c.id === id);
  const commit = async (next: ConnectionsFile): Promise<void> => {
    await mkdir(opts.dataDir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, file);
    state = next;
  };
  const customIndex = (id: string): number => {
    const index = state.custom.findIndex((c) => c.id === id);
    if (index < 0) throw new Error(`No custom connection ${id}`);
    return index;
  };

  return {
    list,
    get,
    active: () =>
      (state.activeId !== null ? get(state.activeId) : undefined) ??
      (sandboxes.get(localSandboxId) as Connection),
    async setActive(id) {
      const connection = get(id);
      if (!connection) throw new Error(`No connection ${id}`);
      await commit({ ...state, activeId: id });
      return connection;
    },
    async addCustom(input) {
      const { assetIdName, ...parsed } = customConnectionInputSchema.parse(input);
      const stored: StoredConnection = {
        id: `custom-${randomUrlToken(6).toLowerCase().replace(/_/g, '-')}`,
        ...parsed,
        ...(assetIdName ? { assetIds: { name: assetIdName, source: 'stated' as const } } : {}),
      };
      await commit({ ...state, custom: [...state.custom, stored] });
      return toConnection(stored);
    },
    async updateCustom(id, input) {
      const index = customIndex(id);
      const { assetIdName, ...parsed } = customConnectionInputSchema.parse(input);
      const kept = state.custom[index]?.assetIds;
      const assetIds = assetIdName ? { name: assetIdName, source: 'stated' as const } : kept;
      const stored: StoredConnection = { id, ...parsed, ...(assetIds ? { assetIds } : {}) };
      await commit({ ...state, custom: state.custom.map((c, i) => (i === index ? stored : c)) });
      return toConnection(stored);
    },
    setSandboxOrigin(origin, id = localSandboxId) {
      const sandbox = {
        ...localSandboxConnection(origin, id),
        assetIds: (sandboxes.get(id) as Connection).assetIds,
      };
      sandboxes.set(id, sandbox);
      return sandbox;
    },
    async learnAssetIdName(id, assetIds) {
      const sandbox = sandboxes.get(id);
      // A built-in sandbox states its name each run: what it showed is kept for this run only.
      if (sandbox) {
        sandboxes.set(id, { ...sandbox, assetIds });
        return;
      }
      const index = state.custom.findIndex((c) => c.id === id);
      if (index < 0) return;
      await commit({
        ...state,
        custom: state.custom.map((c, i) => (i === index ? { ...c, assetIds } : c)),
      });
    },
    async removeCustom(id) {
      customIndex(id);
      await commit({
        ...state,
        activeId: state.activeId === id ? null : state.activeId,
        custom: state.custom.filter((c) => c.id !== id),
      });
    },
  };
}

async function load(file: string): Promise<ConnectionsFile> {
  const fresh: ConnectionsFile = { version: 1, activeId: null, custom: [] };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return fresh;
  }
  try {
    const parsed = fileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fresh;
  } catch {
    return fresh;
  }
}

function normaliseUrl(href: string): string {
  return href.replace(/\/+$/, '');
}
