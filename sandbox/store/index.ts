import { openDatabase, type Db } from './db';
import { createAdmin, type Admin } from './admin';
import { createAssetsRepo, type AssetsRepo } from './assets-repo';
import { createExportsRepo, type ExportsRepo } from './exports-repo';
import { createAccountsRepo, type AccountsRepo } from './accounts-repo';
import { createOAuthRepo, type OAuthRepo } from './oauth-repo';
import { createResponsesRepo, type ResponsesRepo } from './responses-repo';

export interface SandboxStore {
  db: Db;
  dataDir: string;
  admin: Admin;
  assets: AssetsRepo;
  exports: ExportsRepo;
  accounts: AccountsRepo;
  oauth: OAuthRepo;
  responses: ResponsesRepo;
  close(): void;
}

/** Opens the sandbox's data folder: the SQLite file and the export files live under it. */
export function openStore(dataDir: string, now: () => number = Date.now): SandboxStore {
  const db = openDatabase(dataDir);
  return {
    db,
    dataDir,
    admin: createAdmin(db, now),
    assets: createAssetsRepo(db),
    exports: createExportsRepo(db),
    accounts: createAccountsRepo(db, now),
    oauth: createOAuthRepo(db, now),
    responses: createResponsesRepo(db, now),
    close() {
      if (db.open) db.close();
    },
  };
}

export * from './admin';
export type { AssetDoc, StoredAsset, StoredValidations } from './assets-repo';
export type { OAuthApplication, CreatedApplication } from './oauth-repo';
export type { EvidenceDocument, PortfolioResponse, ResponseValue } from './responses-repo';
