/**
 * The text of one answer on the browser host's socket, `{ id, envelope }`. A `JsonText` that is the
 * result, or one of its fields, goes in raw: main wrote it as JSON, so sent as a string of it every
 * quote of a page (~10 MB) was escaped here and unescaped by the page before the page parsed it again
 * (`parseJsonText` takes the value as it comes). Anywhere deeper it goes as its wrapper, `{ json }`,
 * which `parseJsonText` reads too. The id comes first, so a page that cannot parse an answer (a
 * damaged stored text) can still tell which call it failed (renderer/src/bridge/socket-calls.ts).
 */
import type { BridgeEnvelope } from '../../shared/bridge/envelope';
import { JsonText } from '../../shared/bridge/json-text';

export function answerMessage(id: number, envelope: BridgeEnvelope): string {
  const raw = envelope.ok ? rawJson(envelope.result) : undefined;
  if (raw === undefined) return JSON.stringify({ id, envelope });
  return `{"id":${JSON.stringify(id)},"envelope":{"ok":true,"result":${raw}}}`;
}

/** The result's JSON with its `JsonText`s spliced in raw; undefined when it holds none to splice. */
function rawJson(result: unknown): string | undefined {
  if (result instanceof JsonText) return result.json;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
  const fields = Object.entries(result);
  if (!fields.some(([, value]) => value instanceof JsonText)) return undefined;
  const parts: string[] = [];
  for (const [key, value] of fields) {
    const text = value instanceof JsonText ? value.json : (JSON.stringify(value) as string | undefined);
    // As JSON.stringify leaves them out: undefined, functions, symbols.
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
