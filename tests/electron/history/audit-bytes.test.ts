import { unzipSync, Zip } from 'fflate';
import { describe, expect, it } from 'vitest';
import { PooledPart, timeText, Utf8Chunks } from '../../../electron/history/audit-bytes';

describe("the audit log's bytes", () => {
  it('times read as toISOString cut to the second, across days, years and the edges', () => {
    const iso = (at: number) => new Date(at).toISOString().replace('T', ' ').slice(0, 19);
    const times = [0, 999, 1_000, 86_399_999, 86_400_000, Date.UTC(2026, 2, 3, 10, 4, 5, 678)];
    for (let at = Date.UTC(2024, 1, 28, 23, 59, 58); at < Date.UTC(2024, 2, 1, 0, 0, 3); at += 997)
      times.push(at);
    times.push(Date.UTC(9999, 11, 31, 23, 59, 59), Date.UTC(10_000, 0, 1), -1, -86_400_001);
    for (const at of times) expect(timeText(at), String(at)).toBe(iso(at));
  });

  it('text is encoded as UTF-8 in chunks that join to Buffer.from of the whole', () => {
    const out = new Utf8Chunks(64 * 1024);
    const pieces: string[] = [];
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < 20_000; i++) {
      const piece =
        i % 1_000 === 0 ? `${'€·漢'.repeat(5_000)}\n` : `row ${i} · Energy, café ${'x'.repeat(i % 50)}\n`;
      pieces.push(piece);
      out.add(piece);
      if (out.full) chunks.push(out.take());
    }
    chunks.push(out.take());
    expect(chunks.length).toBeGreaterThan(5);
    expect(Buffer.concat(chunks).equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
  });

  it('a pooled part deflates its chunks in order into one entry an unzip reads back', async () => {
    const parts: Uint8Array[] = [];
    const zip = new Zip((error, chunk) => {
      if (error) throw error;
      parts.push(chunk);
    });
    const part = new PooledPart('data.txt');
    zip.add(part);
    const whole: Buffer[] = [];
    for (let i = 0; i < 12; i++) {
      const chunk = Buffer.from(`chunk ${i}: ${'abc'.repeat(10_000 + i * 997)}`);
      whole.push(chunk);
      await part.write(chunk, i === 11);
    }
    zip.end();
    const files = unzipSync(Buffer.concat(parts));
    expect(Buffer.from(files['data.txt']!).equals(Buffer.concat(whole))).toBe(true);
  });
});
