import { constants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import type { RawDeflate } from '../../shared/workbook/write-workbook';

const options = (final: boolean) => ({
  level: 1,
  finishFlush: final ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
  // Room for a whole piece's output (a 256 kB piece packs to about 40 kB): zlib's 16 kB default
  // answered each piece in three rounds between main and the thread pool.
  chunkSize: 1 << 17,
});

/**
 * Node's zlib as the workbook writer's deflate and checksum. Each piece is deflated on its own and
 * ends on a byte boundary (a sync flush), so the pieces joined are one valid deflate stream; only the
 * last carries the final block. Level 1: sheet XML is repetitive enough to pack about 6:1 at it.
 * The deflate runs in libuv's thread pool, so the writer builds the next pieces meanwhile (issue 33:
 * on a free core the export takes about as long as the longer of the two, not their sum).
 */
export const nativeDeflate: RawDeflate = {
  deflate: (piece, final) =>
    new Promise<Uint8Array>((resolve, reject) =>
      deflateRaw(piece, options(final), (error, packed) => (error ? reject(error) : resolve(packed))),
    ),
  crc32: (piece, previous) => crc32(piece, previous),
};

/** The same, in the calling thread (for callers that want no thread pool work). */
export const nativeDeflateSync: RawDeflate = {
  deflate: (piece, final) => deflateRawSync(piece, options(final)),
  crc32: (piece, previous) => crc32(piece, previous),
};
