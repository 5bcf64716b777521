/**
 * The launcher of the local Submission Service the app ships with (a new user works against it with
 * no account). The sandbox runs as a process of its own, started the first time its connection is
 * used, so the window opens first and the service never shares main's event loop. It keeps its data
 * beside the app's, so sandbox assets survive restarts like real ones would.
 *
 * The only module outside `sandbox/` that knows it, and then only its message protocol.
 */
import { fork } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  configEnvName,
  identityPath,
  identityProof,
  type AppToSandbox,
  type EmbeddedSandboxConfig,
  type EmbeddedSandboxInfo,
  type SandboxToApp,
} from '../../sandbox/embedded-protocol';
import { oobRedirectUri } from '../auth/oauth-login';
import type { LocalSandboxAccess } from '../auth/local-sandbox';
import { fetchWithDeadline } from '../net/deadline';
import { readBoundedText } from '../service-client/bounded-body';

export type { EmbeddedSandboxInfo };

/** A started sandbox process, whichever runtime started it. */
export interface SandboxProcess {
  onMessage(listener: (message: SandboxToApp) => void): void;
  onExit(listener: (code: number | null) => void): void;
  send(message: AppToSandbox): void;
  kill(): void;
}

/** Starts the sandbox's entry with this environment (Electron: utilityProcess.fork in main.ts). */
export type SpawnSandbox = (env: Record<string, string>) => SandboxProcess;

/** Under Node (tests, the browser host): a child process running the entry from source with tsx. */
export function nodeSandboxSpawner(
  entry = fileURLToPath(new URL('../../sandbox/embedded.ts', import.meta.url)),
): SpawnSandbox {
  return (env) => {
    const child = fork(entry, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return {
      onMessage: (listener) => child.on('message', (message) => listener(message as SandboxToApp)),
      onExit: (listener) => child.on('exit', (code) => listener(code)),
      send: (message) => void (child.connected && child.send(message)),
      kill: () => void child.kill('SIGTERM'),
    };
  };
}

const startTimeoutMs = 60_000;
const stopTimeoutMs = 5_000;
/** How long a port that just answered as our child's is taken as still being it. */
const identityFreshMs = 250;
const identityTimeoutMs = 3_000;

interface Running {
  process: SandboxProcess;
  info: EmbeddedSandboxInfo;
  exited: Promise<void>;
  /** When its port last answered with the child's proof (performance.now()). */
  verifiedAt: number;
}

export class EmbeddedSandbox implements LocalSandboxAccess {
  private starting: Promise<EmbeddedSandboxInfo> | undefined;
  private running: Running | undefined;
  private checking: Promise<EmbeddedSandboxInfo> | undefined;
  private launches = 0;

  constructor(
    private readonly opts: {
      dataDir: string;
      assessmentYear: number;
      spawn?: SpawnSandbox | undefined;
      /** The sandbox that speaks the real service's names (`--real-names`), with its own data. */
      realNames?: boolean;
    },
  ) {}

  /**
   * The running sandbox, its port just seen answered by this very process (a nonce it answers with
   * the key it was given over its own channel): a call that needs the service, and so its token,
   * goes through here first. A process that died, or a port that answers as something else (issue
   * 29: another local process bound the dead child's port and received the run's token), is
   * replaced by a new process, on a new port with a new token. A failed start is tried again next
   * time.
   */
  ensure(): Promise<EmbeddedSandboxInfo> {
    const running = this.running;
    if (running && performance.now() - running.verifiedAt < identityFreshMs)
      return Promise.resolve(running.info);
    this.checking ??= this.checkedRun().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** What the started sandbox answered; undefined until it has started. */
  get info(): EmbeddedSandboxInfo | undefined {
    return this.running?.info;
  }

  /** The started sandbox's address (tests and the browser host print it). */
  get baseUrl(): string {
    return this.started().baseUrl;
  }
  get token(): string {
    return this.started().token;
  }
  get entityIds(): number[] {
    return this.started().entityIds;
  }
  get demoUser(): EmbeddedSandboxInfo['demoUser'] {
    return this.started().demoUser;
  }
  get oauthClient(): EmbeddedSandboxInfo['oauthClient'] {
    return this.started().oauthClient;
  }

  async close(): Promise<void> {
    const starting = this.starting;
    this.starting = undefined;
    await starting?.catch(() => undefined);
    const running = this.running;
    this.running = undefined;
    if (!running) return;
    running.process.send({ type: 'stop' });
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), stopTimeoutMs).unref());
    if ((await Promise.race([running.exited, timer])) === 'late') running.process.kill();
  }

  private started(): EmbeddedSandboxInfo {
    const info = this.running?.info;
    if (!info) throw new Error('The local sandbox has not started yet');
    return info;
  }

  private async checkedRun(): Promise<EmbeddedSandboxInfo> {
    for (let attempt = 1; ; attempt++) {
      if (!this.starting) {
        const launch = ++this.launches;
        this.starting = this.launch(launch).catch((error: unknown) => {
          if (this.launches === launch) this.starting = undefined;
          throw error;
        });
      }
      const info = await this.starting;
      if (await answersAsOurs(info)) {
        if (this.running?.info === info) this.running.verifiedAt = performance.now();
        return info;
      }
      // Not our child behind that port any more: never send it anything; start another.
      await this.close();
      if (attempt >= 2) throw new Error('The local sandbox does not answer on its own port.');
    }
  }

  /** `launch`, numbered: a child's exit forgets its own start, never a later one's. */
  private launch(launch: number): Promise<EmbeddedSandboxInfo> {
    const config: EmbeddedSandboxConfig = {
      dataDir: this.opts.dataDir,
      assessmentYear: this.opts.assessmentYear,
      redirectUris: ['http://127.0.0.1/', oobRedirectUri],
      realNames: this.opts.realNames === true,
    };
    const spawn = this.opts.spawn ?? nodeSandboxSpawner();
    const child = spawn({ [configEnvName]: JSON.stringify(config) });
    let exitedResolve: () => void = () => undefined;
    const exited = new Promise<void>((resolve) => (exitedResolve = resolve));
    return new Promise<EmbeddedSandboxInfo>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error('The local sandbox did not start in time.'));
      }, startTimeoutMs);
      child.onMessage((message) => {
        clearTimeout(timer);
        if (message.type === 'failed') {
          reject(new Error(`The local sandbox could not start: ${message.message}`));
          return;
        }
        // Not verified yet: `ensure` asks its port for the proof before anything is sent there.
        this.running = { process: child, info: message.info, exited, verifiedAt: -Infinity };
        resolve(message.info);
      });
      child.onExit((code) => {
        clearTimeout(timer);
        exitedResolve();
        // Gone (stopped or crashed): the next use starts a new one, on a new port with a new token.
        if (this.running?.process === child) this.running = undefined;
        if (this.launches === launch) this.starting = undefined;
        reject(new Error(`The local sandbox stopped (exit code ${String(code)}).`));
      });
    });
  }
}

/** True when `info`'s port answers a fresh nonce with the proof only our child can compute. */
async function answersAsOurs(info: EmbeddedSandboxInfo): Promise<boolean> {
  const nonce = randomBytes(16).toString('hex');
  try {
    const response = await fetchWithDeadline(
      `${info.baseUrl}${identityPath}?nonce=${nonce}`,
      { redirect: 'manual' },
      { timeoutMs: identityTimeoutMs },
    );
    if (response.status !== 200) {
      await response.body?.cancel();
      return false;
    }
    const proof = (JSON.parse(await readBoundedText(response, 1024)) as { proof?: unknown }).proof;
    const expected = Buffer.from(identityProof(info.identityKey, nonce));
    return (
      typeof proof === 'string' &&
      proof.length === expected.length &&
      timingSafeEqual(Buffer.from(proof), expected)
    );
  } catch {
    return false;
  }
}
