/**
 * Reading an HTTP answer with a size limit. `response.text()` and `response.json()` read whatever
 * arrives: a 2.2 GB answer aborts the process in V8, 600 MB costs 1.4 GB of memory. Every answer
 * from a service is read through here with a limit that fits what it should hold.
 */
/**
 * How much of an answer is read. A page of 100 assets is a few MB and a 5,000-item batch answer
 * tens of MB; each limit leaves several times that, and an answer past it fails with a clear error
 * instead of taking the app's memory.
 */
export const answerLimits = {
  /** Entities, lists, one asset, one response. */
  default: 8 * 1024 * 1024,
  /** One page of the asset listing (at most 100 assets). */
  page: 32 * 1024 * 1024,
  /** A batch or validation answer for up to 5,000 items per field. */
  batch: 256 * 1024 * 1024,
  /** The body of a refusal: only its message is shown. */
  error: 64 * 1024,
} as const;

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The answer is larger than ${describeBytes(limit)}`);
    this.name = 'BodyTooLargeError';
  }
}

export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

/** The body as text, or BodyTooLargeError as soon as the limit is passed (the rest is not read). */
export async function readBoundedText(response: Response, limit: number): Promise<string> {
  return new TextDecoder().decode(await readBoundedBytes(response, limit));
}

/**
 * The body's bytes in a buffer of their own (so it can be transferred to a worker thread without a
 * copy), or BodyTooLargeError as soon as the limit is passed (the rest is not read).
 */
export async function readBoundedBytes(
  response: Response,
  limit: number,
  /** Sees each chunk as it arrives; what it throws stops the reading there (the rest is not read). */
  onChunk?: (chunk: Uint8Array) => void,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit);
    }
    if (onChunk) {
      try {
        onChunk(value);
      } catch (error) {
        await reader.cancel().catch(() => undefined);
        throw error;
      }
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
