import { constants, crc32, deflateRawSync } from 'node:zlib';
import type { RawDeflate } from '../../shared/workbook/write-workbook';

/**
 * Node's zlib as the workbook writer's deflate and checksum. Each piece is deflated on its own and
 * ends on a byte boundary (a sync flush), so the pieces joined are one valid deflate stream; only the
 * last carries the final block. Level 1: sheet XML is repetitive enough to pack about 6:1 at it.
 */
export const nativeDeflate: RawDeflate = {
  deflate: (piece, final) =>
    deflateRawSync(piece, { level: 1, finishFlush: final ? constants.Z_FINISH : constants.Z_SYNC_FLUSH }),
  crc32: (piece, previous) => crc32(piece, previous),
};
