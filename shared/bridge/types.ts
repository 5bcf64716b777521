/** Result payloads of bridge methods that are not domain resources. None carries a token. */
import type { CertificationScheme, EnergyRatingScheme, Entity, ListItem } from '../domain';
import type { AssetView } from '../sync/types';
import type { AssetIdNameState } from '../sync/asset-id-name';

export interface AppInfo {
  name: string;
  version: string;
  /** Which host the renderer runs in: the desktop shell or the browser host used for tests. */
  host: 'electron' | 'browser';
  /**
   * False in the browser host: files are chosen with the page's file input and uploaded, exports
   * arrive as browser downloads (`downloadId`) and OAuth opens the sign-in page in a new tab.
   */
  fileDialogs: boolean;
}

export type ExpiryLevel = 'ok' | 'soon' | 'expired' | 'unknown';

/** What the UI may know about a sign-in: never the token itself. */
export interface AuthStatus {
  signedIn: boolean;
  kind?: 'partner' | 'oauth' | 'sandbox' | undefined;
  scopes: string[];
  expiresAt: string | null;
  expiry: ExpiryLevel;
  /** Where the token lives: the OS keychain, or memory for this session when none answers. */
  storage: 'keychain' | 'memory';
  /** The sync is paused until the user signs in again. */
  paused: boolean;
}

export interface ConnectionView {
  id: string;
  name: string;
  kind: 'local-sandbox' | 'custom';
  baseUrl: string;
  portalUrl: string;
  active: boolean;
  /**
   * The name this connection's service gives the asset id, and how the app knows it: stated (a
   * built-in sandbox, the real service's preset), learned from its answers, or assumed until then.
   */
  assetIdName: AssetIdNameState;
}

export interface EntitySummary {
  id: number;
  name: string;
  currency: string;
  areaUnit: string;
  reportingPeriod: string;
}

export interface SessionState {
  connections: ConnectionView[];
  activeConnectionId: string;
  auth: AuthStatus;
  keychain: { available: boolean; message?: string | undefined };
  entities: EntitySummary[];
  activeEntityId: number | null;
  /** False when the last call to the service could not reach it; the workspace still works. */
  online: boolean;
  /** At start, while the sandbox, the token and the service are on their way (the workspace is open). */
  connecting: boolean;
  /** Set when the session could not be established (service unreachable, refused token). */
  problem?: string | undefined;
  /** A workspace that could not be opened (its file damaged, its folder not writable), and why. */
  workspaceProblem?: WorkspaceProblem | undefined;
}

export interface WorkspaceProblem {
  entityId: number;
  /** The entity's name when the session knows it. */
  entityName: string | null;
  /** `damaged`: the file cannot be read as a workspace; `unwritable`: its folder or file refuses writes. */
  kind: 'damaged' | 'unwritable';
  /** Which workspace, why, what becomes of its unsent changes, what to do: one paragraph for the user. */
  message: string;
  /** The file, left as it is (a rebuild moves it aside under a new name, unchanged). */
  file: string;
  /** Changes not yet sent that a rebuild loses: a count read from the damaged file, or null when unreadable. */
  unsent: number | null;
  /** A rebuild from the service is offered (a damaged file); an unwritable folder needs the user first. */
  canRebuild: boolean;
}

/**
 * Lists the rules and dropdowns need offline, cached in the workspace. Each comes from the service
 * (fetched now or cached from an earlier refresh) or, until then, from the app's shipped snapshot.
 */
export interface ReferenceData {
  certifications: CertificationScheme[];
  energyRatings: EnergyRatingScheme[];
  /** The service's `equity_asset_type` list. */
  propertyTypes: ListItem[];
  /** The service's `country` list (ISO 3166). */
  countries: ListItem[];
  /** Where each list came from; `shipped` lists make list checks warnings, not errors. */
  sources: Record<ReferenceListName, 'service' | 'shipped'>;
  /** When the service's lists were last fetched. */
  fetchedAt: string | null;
  /** Why the last refresh failed, for the analyst; cleared by a successful refresh. */
  problem?: string | undefined;
}

export type ReferenceListName = 'certifications' | 'energyRatings' | 'propertyTypes' | 'countries';

export interface WorkspaceSnapshot {
  connectionId: string;
  entity: Entity;
  assessmentYear: number;
  reference: ReferenceData;
  /** The workspace's assets in order, or the first `limit` of them. */
  assets: AssetView[];
  /** How many assets the workspace holds. */
  total: number;
  /** Where `workspace.assets` goes on when the snapshot holds only the first `limit`; null: all here. */
  next: number | null;
  /**
   * Asked for with `laterPages`: where each later page starts (the first is `next`), each page
   * running through the row before the next one starts, the last to the end. Empty: all here.
   */
  pageStarts: number[];
  lastSyncAt: string | null;
}

export type { AssetPage } from './asset-page';

export interface OAuthStart {
  flowId: string;
  mode: 'loopback' | 'oob';
  /** Shown to the user when the browser could not be opened, or for the oob path. */
  authorizeUrl: string;
  browserOpened: boolean;
  fallbackReason?: string | undefined;
  /**
   * The local sandbox only: its portal's demo login (the password is made per install), shown
   * beside the wait so the user can sign in on the page the browser opens. Never logged.
   */
  portalLogin?: { email: string; password: string } | undefined;
}

export type OAuthFinished =
  { flowId: string; ok: true } | { flowId: string; ok: false; code: string; message: string };

export type {
  EvidenceInput,
  EvidenceItemView,
  IndicatorDefinition,
  IndicatorValue,
  ResponseDetail,
  ResponseListItem,
  ResponseValueStatus,
  ResponseValueView,
  ResponsesSyncReport,
} from '../responses/types';

/** A file the user chose in main's dialog. The path never leaves main. */
export interface PickedFile {
  fileId: string;
  name: string;
  /** Null when the file could not be read at pick time (the use of it will say why). */
  size: number | null;
}
