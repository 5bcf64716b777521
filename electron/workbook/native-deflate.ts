import { constants, crc32, createGzip, deflateRaw, deflateRawSync } from 'node:zlib';
import { recycleChunk } from '../../shared/workbook/xml-bytes';
import type { Packed, PartPacking, RawDeflate } from '../../shared/workbook/zip-out';

const options = (final: boolean) => ({
  level: 1,
  finishFlush: final ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
  // Room for a whole piece's output (a 1 MB piece packs to about 160 kB): zlib's 16 kB default
  // answered each piece in three rounds between main and the thread pool.
  chunkSize: 1 << 18,
});

/** What zlib writes around a gzip member's deflate stream when no header is given: 10 bytes before, CRC-32 and size after. */
const GZIP_HEADER = 10;
const GZIP_TRAILER = 8;
/**
 * Pieces a part may have waiting for zlib before its writer waits (bounds memory, keeps zlib fed):
 * eight tabs' 2 pieces of 1 MB are 16 MB at most, as 8 of 256 kB were before the pieces grew
 * (issue 33: `CHUNK_BYTES` says why). With 4 of 256 kB, main waited on a part's backlog while the
 * pool still had work; 4 of 1 MB timed no better than 2, and leave more to pack after the last row.
 */
const AHEAD = 2;
/** Output per round of the stream: a 1 MB piece packs to about 160 kB, so one round answers it. */
const STREAM_OUT_BYTES = 1 << 18;

/**
 * A part packed as one deflate stream in libuv's thread pool (issue 33): each piece is written to
 * the part's own zlib stream, which keeps its window across pieces and flushes nothing until the
 * end, so the deflate costs what the floor's one call per part costs, where a call per piece (an
 * empty window each time, a sync flush, a stream set up and torn down) cost half again as much.
 * The stream is gzip rather than raw only for its checksum: zlib computes the CRC-32 the ZIP needs
 * in the pool's thread as it reads each piece, off the thread that builds the XML; its 10-byte
 * header and 8-byte trailer are cut off and the CRC read from the trailer.
 */
function streamPart(): PartPacking {
  const gzip = createGzip({ level: 1, chunkSize: STREAM_OUT_BYTES });
  const out: Buffer[] = [];
  let size = 0;
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  // Awaited by `settled` or `packed`; until then a failure must not count as unhandled.
  ended.catch(() => undefined);
  let pending = 0;
  let failure: unknown = null;
  const waiting: Array<() => void> = [];
  return {
    push(piece, final) {
      size += piece.length;
      pending++;
      gzip.write(piece, (error) => {
        pending--;
        if (error) failure ??= error;
        // zlib has read the piece whole into its window: its chunk may be written again.
        else recycleChunk(piece);
        if (pending <= AHEAD || failure) waiting.splice(0).forEach((wake) => wake());
      });
      if (final) gzip.end();
    },
    settled: async () => {
      // The stream hands zlib its next piece only on main's turn: the writer gives it turns.
      while (pending > AHEAD && !failure) await new Promise<void>((resolve) => waiting.push(resolve));
      if (failure) throw failure;
    },
    packed: async () => {
      await ended;
      return unwrapGzip(out, size);
    },
  };
}

/** The deflate stream inside a gzip member's chunks (no copy of it), with the CRC-32 its trailer gives. */
function unwrapGzip(chunks: readonly Buffer[], size: number): Packed {
  const total = chunks.reduce((n, chunk) => n + chunk.length, 0);
  const tail: Buffer[] = [];
  for (let i = chunks.length - 1, got = 0; i >= 0 && got < GZIP_TRAILER; i--) {
    tail.unshift(chunks[i]!);
    got += chunks[i]!.length;
  }
  const trailer = Buffer.concat(tail).subarray(-GZIP_TRAILER);
  const first = chunks[0];
  if (total < GZIP_HEADER + GZIP_TRAILER || first?.[0] !== 0x1f || first[1] !== 0x8b)
    throw new Error('zlib gave no gzip member');
  if (trailer.readUInt32LE(4) !== size % 2 ** 32)
    throw new Error('zlib packed another size than was written');
  const pieces: Uint8Array[] = [];
  const end = total - GZIP_TRAILER;
  let at = 0;
  for (const chunk of chunks) {
    const from = Math.max(0, GZIP_HEADER - at);
    const to = Math.min(chunk.length, end - at);
    if (to > from) pieces.push(chunk.subarray(from, to));
    at += chunk.length;
  }
  return { crc: trailer.readUInt32LE(0), size, pieces };
}

/**
 * Node's zlib as the workbook writer's deflate and checksum, level 1 (sheet XML is repetitive
 * enough to pack about 6:1 at it). A part is packed by `part` (one stream, above); `deflate` packs
 * a piece on its own, ending on a byte boundary (a sync flush) so the pieces joined are one valid
 * deflate stream, only the last carrying the final block. Both run in libuv's thread pool, so the
 * writer builds the next pieces meanwhile (issue 33: on a free core the export takes about as long
 * as the longer of the two, not their sum).
 */
export const nativeDeflate: RawDeflate = {
  deflate: (piece, final) =>
    new Promise<Uint8Array>((resolve, reject) =>
      deflateRaw(piece, options(final), (error, packed) => (error ? reject(error) : resolve(packed))),
    ),
  crc32: (piece, previous) => crc32(piece, previous),
  part: streamPart,
  turn: () => new Promise<void>((resolve) => setImmediate(resolve)),
};

/** Piece by piece in the calling thread (for callers that want no thread pool work). */
export const nativeDeflateSync: RawDeflate = {
  deflate: (piece, final) => deflateRawSync(piece, options(final)),
  crc32: (piece, previous) => crc32(piece, previous),
};
