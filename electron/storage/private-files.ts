import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * The app's data is the analyst's alone: folders 0700, files 0600, whatever the umask. On Windows
 * the modes mean little and the profile folder's ACL protects the data; chmod is harmless there.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Creates `file` empty with mode 0600 if it does not exist, else narrows its mode to 0600. */
export function ensurePrivateFile(file: string): void {
  if (existsSync(file)) chmodSync(file, 0o600);
  else closeSync(openSync(file, 'a', 0o600));
}
