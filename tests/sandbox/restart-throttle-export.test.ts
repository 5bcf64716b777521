import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sheetNames } from '../../shared/workbook/layout';
import { asJson, asList, startHarness, validAsset } from './helpers';

describe('restart', () => {
  it('data written, server stopped, started again on the same folder: data intact', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-restart-'));
    try {
      const first = await startHarness({}, dir);
      const created = asJson(
        (
          await first.api('POST', `/api/v1/entities/${first.entityId}/assets`, {
            body: validAsset(1, { certifications: [{ certification_id: 10, size: 100, year: 2020 }] }),
          })
        ).body,
      );
      const batch = await first.api('POST', `/api/v1/entities/${first.entityId}/assets/batches`, {
        body: { create: [validAsset(2), validAsset(3)] },
      });
      expect(asJson(batch.body)['counts']).toMatchObject({ created: 2 });
      const before = (await first.api('GET', `/api/v1/entities/${first.entityId}/assets`)).body;
      const token = first.token;
      await first.close();

      const second = await startHarness({}, dir);
      try {
        const after = await second.api('GET', `/api/v1/entities/${second.entityId}/assets`, { token });
        expect(after.status).toBe(200);
        expect(after.body).toEqual(before);
        expect(asList(after.body)).toHaveLength(3);
        // Sequences survive too: a new certification never reuses an id.
        const next = asJson(
          (
            await second.api('POST', `/api/v1/entities/${second.entityId}/assets`, {
              token,
              body: validAsset(4, { certifications: [{ certification_id: 10, size: 100, year: 2020 }] }),
            })
          ).body,
        );
        const oldCert = (asList(created['certifications'])[0] as Record<string, unknown>)['id'] as number;
        const newCert = (asList(next['certifications'])[0] as Record<string, unknown>)['id'] as number;
        expect(newCert).toBeGreaterThan(oldCert);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('throttling', () => {
  it('Limits: over the limit the batch endpoint answers 429, Remaining -1, per access token; resets after the window', async () => {
    let clock = Date.now();
    const h = await startHarness({ rateLimit: { limit: 3, windowMs: 60_000 }, now: () => clock });
    try {
      const path = `/api/v1/entities/${h.entityId}/assets/batches`;
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await h.api('POST', path, { body: {} });
        expect(r.status).toBe(200);
        remaining.push(r.headers.get('x-ratelimit-remaining') ?? '');
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const refused = await h.api('POST', path, { body: { create: [validAsset(1)] } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('-1');
      expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
      expect(Number(refused.headers.get('x-ratelimit-reset'))).toBe(Math.ceil((clock + 60_000) / 1000));
      expect(asJson(refused.body)).toMatchObject({ error: 'too_many_requests', message: expect.any(String) });
      // Refused, not queued: nothing was created.
      expect((await h.api('GET', `/api/v1/entities/${h.entityId}/assets`)).headers.get('total')).toBe('0');
      // Tracked per token: another token still has its budget.
      const other = h.tokenWith(['write:assets']);
      expect((await h.api('POST', path, { body: {}, token: other })).status).toBe(200);
      clock += 60_001;
      expect((await h.api('POST', path, { body: {} })).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe('spreadsheet export', () => {
  async function callbackReceiver(failFirst = 0) {
    const bodies: unknown[] = [];
    let calls = 0;
    const server = createServer((req, res) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString()));
      req.on('end', () => {
        calls++;
        if (calls <= failFirst) return res.writeHead(503).end();
        bodies.push(JSON.parse(data));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/done`;
    const waitForBody = async (): Promise<{ url: string }> => {
      for (let i = 0; i < 200 && bodies.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      return bodies[0] as { url: string };
    };
    return { url, waitForBody, calls: () => calls, close: () => new Promise((r) => server.close(r)) };
  }

  it('Endpoints: callback_url form field; the XLSX of all assets is announced by POST {url}; refused after the TTL', async () => {
    let clock = Date.now();
    const h = await startHarness({
      now: () => clock,
      exportTtlMs: 15 * 60_000,
      callbackRetry: { baseDelayMs: 10 },
    });
    const cb = await callbackReceiver(1);
    try {
      await h.api('POST', `/api/v1/entities/${h.entityId}/assets`, {
        body: validAsset(1, {
          certifications: [{ certification_id: 3, level: 'Gold', size: 10, year: 2020 }],
        }),
      });
      await h.api('POST', `/api/v1/entities/${h.entityId}/assets`, { body: validAsset(2) });
      const res = await fetch(`${h.baseUrl}/api/v1/entities/${h.entityId}/asset_spreadsheet_export`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ callback_url: cb.url }).toString(),
      });
      expect(res.status).toBe(200);
      const notice = await cb.waitForBody();
      expect(cb.calls()).toBe(2); // the first delivery failed and was retried
      expect(Object.keys(notice)).toEqual(['url']);
      const file = await fetch(notice.url);
      expect(file.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(await file.arrayBuffer());
      expect(wb.worksheets.map((w) => w.name)).toEqual([...sheetNames, 'Lists']);
      const chars = wb.getWorksheet('Asset Characteristics');
      expect(chars?.getRow(1).hidden).toBe(true);
      expect(chars?.getRow(1).getCell(1).value).toBe('gresb_asset_id');
      expect(chars?.getRow(2).getCell(1).value).toBe('Asset ID');
      expect(chars?.rowCount).toBe(4); // names, labels, two assets
      const energy = wb.getWorksheet('Energy');
      const keys = (energy?.getRow(1).values as unknown[]).filter((v) => typeof v === 'string');
      expect(keys).toContain('annual_data[2025].en_abs_we');
      expect(keys).toContain('annual_data[2024].en_abs_we');

      clock += 15 * 60_000 + 1;
      expect((await fetch(notice.url)).status).toBe(410);
    } finally {
      await h.close();
      await cb.close();
    }
  });

  it('Export: only http(s) callback URLs; the field must be a form field', async () => {
    const h = await startHarness();
    try {
      const post = (body: string, type: string) =>
        fetch(`${h.baseUrl}/api/v1/entities/${h.entityId}/asset_spreadsheet_export`, {
          method: 'POST',
          headers: { authorization: `Bearer ${h.token}`, 'content-type': type },
          body,
        });
      expect(
        (await post('callback_url=file%3A%2F%2F%2Fetc%2Fpasswd', 'application/x-www-form-urlencoded')).status,
      ).toBe(400);
      expect((await post('', 'application/x-www-form-urlencoded')).status).toBe(400);
      expect(
        (await post(JSON.stringify({ callback_url: 'http://127.0.0.1:1/x' }), 'application/json')).status,
      ).toBe(400);
      const form = new FormData();
      form.set('callback_url', 'http://127.0.0.1:9/x');
      const multipart = await fetch(`${h.baseUrl}/api/v1/entities/${h.entityId}/asset_spreadsheet_export`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}` },
        body: form,
      });
      expect(multipart.status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('Export: the access_token may be sent as a form parameter', async () => {
    const h = await startHarness();
    try {
      const r = await fetch(`${h.baseUrl}/api/v1/entities/${h.entityId}/asset_spreadsheet_export`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ callback_url: 'http://127.0.0.1:9/x', access_token: h.token }).toString(),
      });
      expect(r.status).toBe(200);
    } finally {
      await h.close();
    }
  });
});
