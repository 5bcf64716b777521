/**
 * The browser host's answer text: a `JsonText` that is the result or one of its fields goes in raw
 * (the page parses it once), anything else as JSON.stringify writes it; the id always comes first.
 */
import { describe, expect, it } from 'vitest';
import { answerMessage } from '../../../electron/browser-host/answer-message';
import { jsonText, parseJsonText } from '../../../shared/bridge/json-text';

describe('an answer on the browser host socket', () => {
  it('splices a JsonText field raw, beside the fields JSON.stringify writes', () => {
    const views = jsonText<Array<{ a: string }>>('[{"a":"say \\"hi\\""}]');
    const text = answerMessage(3, { ok: true, result: { views, next: null, gone: undefined } });
    expect(text).toBe(
      '{"id":3,"envelope":{"ok":true,"result":{"views":[{"a":"say \\"hi\\""}],"next":null}}}',
    );
    const parsed = JSON.parse(text) as { envelope: { result: { views: Array<{ a: string }> } } };
    expect(parseJsonText(parsed.envelope.result.views)).toEqual([{ a: 'say "hi"' }]);
  });
  it('splices a result that is itself a JsonText; deeper, it goes as its wrapper, which still reads', () => {
    expect(answerMessage(1, { ok: true, result: jsonText<number[]>('[1,2]') })).toBe(
      '{"id":1,"envelope":{"ok":true,"result":[1,2]}}',
    );
    const deep = { ok: true as const, result: { page: { views: jsonText<number[]>('[3]') } } };
    const parsed = JSON.parse(answerMessage(2, deep)) as { envelope: typeof deep };
    expect(parseJsonText(parsed.envelope.result.page.views)).toEqual([3]);
  });
  it('writes any other answer as JSON.stringify does, the id first', () => {
    const error = { ok: false as const, error: { code: 'internal' as const, message: 'no' } };
    expect(answerMessage(4, error)).toBe(JSON.stringify({ id: 4, envelope: error }));
    const plain = { ok: true as const, result: { views: '[1]', list: [1, 'a'] } };
    expect(answerMessage(5, plain)).toBe(JSON.stringify({ id: 5, envelope: plain }));
  });
});
