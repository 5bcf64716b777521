import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * The sandbox's data (its database, exports, the demo password) is for the user who runs it: other
 * local users must not read it, whatever the umask. Folders 0700, files 0600; an earlier run's
 * wider modes are narrowed. The sandbox imports no electron/ code, so this is its own copy of the
 * desktop app's rule (electron/storage/private-files.ts).
 */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Narrows each existing file to 0600, creating the first (empty) if it is missing. */
export function makePrivateFiles(first: string, ...others: string[]): void {
  if (existsSync(first)) chmodSync(first, 0o600);
  else closeSync(openSync(first, 'a', 0o600));
  for (const file of others) if (existsSync(file)) chmodSync(file, 0o600);
}
