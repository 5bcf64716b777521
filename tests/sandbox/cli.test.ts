/**
 * `npm run sandbox` on its own: it prints the install's demo password to its own terminal, its
 * request log never carries a credential from the query string nor an export's callback URL's
 * secret path, and its data is readable by its user only (folders 0700, files 0600).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactCallbackUrl, redactUrl } from '../../sandbox/http/log-redaction';

let child: ChildProcess | undefined;
let receiver: Server | undefined;
// The folder exists already with the usual 0755 (umask 022): the sandbox must narrow it.
const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-cli-'));
chmodSync(dir, 0o755);
let out = '';
let baseUrl = '';
let token = '';
const waitFor = async (pattern: RegExp): Promise<RegExpExecArray> => {
  for (let i = 0; i < 600; i++) {
    const m = pattern.exec(out);
    if (m) return m;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not printed: ${String(pattern)}\n${out}`);
};
const logLines = (): string[] => out.split('\n').filter((line) => line.startsWith('{'));
const mode = (file: string): string => (statSync(file).mode & 0o777).toString(8);

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--data-dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  baseUrl = (await waitFor(/base URL : (\S+)/))[1] ?? '';
  token = (await waitFor(/token {4}: (\S+)/))[1] ?? '';
}, 60_000);

afterAll(async () => {
  receiver?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run sandbox', () => {
  it('prints the demo password once, and logs ?access_token= redacted', async () => {
    const password = (await waitFor(/sign in as analyst@example\.com \/ (\S+)\)/))[1] ?? '';
    expect(password).not.toBe('sandbox-demo');
    expect(password.length).toBeGreaterThanOrEqual(16);

    const res = await fetch(`${baseUrl}/api/v1/entities?access_token=${token}&x=1`);
    expect(res.status).toBe(200);
    const logged = await waitFor(/.*"url":"\/api\/v1\/entities\?[^"]*".*/);
    expect(logged[0]).toContain('access_token=[redacted]&x=1');
    // The token appears in the banner (the terminal's owner asked for it), never in a log line.
    expect(logLines().length).toBeGreaterThan(0);
    for (const line of logLines()) expect(line).not.toContain(token);
    for (const line of logLines()) expect(line).not.toContain(password);
  });

  it('logs an export callback by its origin only, and keeps its files 0600 in 0700 folders', async () => {
    const hookSecret = 'hook-path-secret-4f9a';
    const querySecret = 'sig-query-secret-77c1';
    const delivered = new Promise<void>((resolve) => {
      receiver = createServer((req, res) => {
        res.writeHead(req.url?.includes('refuse') ? 500 : 204).end();
        if (!req.url?.includes('refuse')) resolve();
      });
    });
    const receiverPort = await new Promise<number>((resolve) =>
      receiver?.listen(0, '127.0.0.1', () => {
        const address = receiver?.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      }),
    );
    const entityId = (await waitFor(/entities : (\d+)/))[1] ?? '';
    for (const hook of [
      `/refuse/${hookSecret}?sig=${querySecret}`,
      `/hooks/${hookSecret}?sig=${querySecret}`,
    ]) {
      const res = await fetch(`${baseUrl}/api/v1/entities/${entityId}/asset_spreadsheet_export`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ callback_url: `http://127.0.0.1:${receiverPort}${hook}` }).toString(),
      });
      expect(res.status).toBe(200);
    }
    await delivered;
    await waitFor(/export callback delivered/);
    await waitFor(/export callback refused/);
    const callbackLines = logLines().filter((line) => line.includes('callbackUrl'));
    expect(callbackLines.length).toBeGreaterThanOrEqual(2);
    for (const line of callbackLines) {
      expect(line).toContain(`"callbackUrl":"http://127.0.0.1:${receiverPort}/[redacted]"`);
      expect(line).not.toContain(hookSecret);
      expect(line).not.toContain(querySecret);
    }

    expect(mode(dir)).toBe('700');
    const exportsDir = path.join(dir, 'exports');
    expect(mode(exportsDir)).toBe('700');
    const files = [
      ...readdirSync(dir).filter((name) => name !== 'exports'),
      ...readdirSync(exportsDir).map((name) => path.join('exports', name)),
    ];
    expect(files).toEqual(expect.arrayContaining(['sandbox.sqlite', 'sandbox.sqlite-wal', 'demo-password']));
    expect(files.some((name) => name.endsWith('.xlsx'))).toBe(true);
    for (const name of files)
      expect({ name, mode: mode(path.join(dir, name)) }).toEqual({ name, mode: '600' });
  });

  it('redacts a callback URL to its origin', () => {
    expect(redactCallbackUrl('https://client.example/hooks/s3cret?sig=abc#x')).toBe(
      'https://client.example/[redacted]',
    );
    expect(redactCallbackUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080/');
    expect(redactCallbackUrl('not a url s3cret')).toBe('[redacted]');
  });

  it('redacts every credential parameter, whatever its case or encoding', () => {
    expect(redactUrl('/a?access_token=abc&page=2')).toBe('/a?access_token=[redacted]&page=2');
    expect(redactUrl('/a?ACCESS_TOKEN=abc')).toBe('/a?ACCESS_TOKEN=[redacted]');
    expect(redactUrl('/a?access%5Ftoken=abc')).toBe('/a?access%5Ftoken=[redacted]');
    expect(redactUrl('/oauth/token?code=c&client_secret=s&code_verifier=v')).toBe(
      '/oauth/token?code=[redacted]&client_secret=[redacted]&code_verifier=[redacted]',
    );
    expect(redactUrl('/a?page=1')).toBe('/a?page=1');
    expect(redactUrl('/a')).toBe('/a');
  });
});
