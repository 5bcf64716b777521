/**
 * The launcher of the local Submission Service the app ships with (a new user works against it with
 * no account). The sandbox runs as a process of its own, started the first time its connection is
 * used, so the window opens first and the service never shares main's event loop. It keeps its data
 * beside the app's, so sandbox assets survive restarts like real ones would.
 *
 * The only module outside `sandbox/` that knows it, and then only its message protocol.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  configEnvName,
  type AppToSandbox,
  type EmbeddedSandboxConfig,
  type EmbeddedSandboxInfo,
  type SandboxToApp,
} from '../../sandbox/embedded-protocol';
import { oobRedirectUri } from '../auth/oauth-login';
import type { LocalSandboxAccess } from '../auth/session-service';

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

export class EmbeddedSandbox implements LocalSandboxAccess {
  private starting: Promise<EmbeddedSandboxInfo> | undefined;
  private running: { process: SandboxProcess; info: EmbeddedSandboxInfo; exited: Promise<void> } | undefined;

  constructor(
    private readonly opts: {
      dataDir: string;
      assessmentYear: number;
      spawn?: SpawnSandbox | undefined;
      /** The sandbox that speaks the real service's names (`--real-names`), with its own data. */
      realNames?: boolean;
    },
  ) {}

  /** Starts the process on first use; later calls share it. A failed start is tried again next time. */
  ensure(): Promise<EmbeddedSandboxInfo> {
    this.starting ??= this.launch().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
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

  private launch(): Promise<EmbeddedSandboxInfo> {
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
        this.running = { process: child, info: message.info, exited };
        resolve(message.info);
      });
      child.onExit((code) => {
        clearTimeout(timer);
        exitedResolve();
        // Gone (stopped or crashed): the next use starts a new one.
        if (this.running?.process === child) this.running = undefined;
        if (this.running === undefined && this.starting) this.starting = undefined;
        reject(new Error(`The local sandbox stopped (exit code ${String(code)}).`));
      });
    });
  }
}
