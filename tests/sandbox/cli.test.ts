/**
 * `npm run sandbox` on its own: it prints the install's demo password to its own terminal, and its
 * request log never carries a credential from the query string.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../sandbox/http/log-redaction';

let child: ChildProcess | undefined;
const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-cli-'));
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run sandbox', () => {
  it('prints the demo password once, and logs ?access_token= redacted', { timeout: 60_000 }, async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--data-dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const waitFor = async (pattern: RegExp): Promise<RegExpExecArray> => {
      for (let i = 0; i < 600; i++) {
        const m = pattern.exec(out);
        if (m) return m;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`not printed: ${String(pattern)}\n${out}`);
    };
    const baseUrl = (await waitFor(/base URL : (\S+)/))[1] ?? '';
    const token = (await waitFor(/token {4}: (\S+)/))[1] ?? '';
    const password = (await waitFor(/sign in as analyst@example\.com \/ (\S+)\)/))[1] ?? '';
    expect(password).not.toBe('sandbox-demo');
    expect(password.length).toBeGreaterThanOrEqual(16);

    const res = await fetch(`${baseUrl}/api/v1/entities?access_token=${token}&x=1`);
    expect(res.status).toBe(200);
    const logged = await waitFor(/.*"url":"\/api\/v1\/entities\?[^"]*".*/);
    expect(logged[0]).toContain('access_token=[redacted]&x=1');
    // The token appears in the banner (the terminal's owner asked for it), never in a log line.
    const logLines = out.split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(line).not.toContain(token);
    for (const line of logLines) expect(line).not.toContain(password);
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
