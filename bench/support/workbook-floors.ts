/**
 * The floors of the workbook bench: the least work that produces the export's file and the import's
 * cells, measured on the same book in the same process, so the export and the import are judged as
 * ratios to what this machine can do at best at the moment they run.
 */
import { readFileSync } from 'node:fs';
import { constants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import type { AssetInput } from '../../shared/domain';
import { nativeDeflate } from '../../electron/workbook/native-deflate';
import { writeAssetWorkbook } from '../../shared/workbook/write-workbook';

/**
 * Every part's XML of the book the export writes for `docs`, whole, in the order written: the book
 * is written into memory and each part inflated back (nothing is timed).
 */
export async function workbookXmlParts(
  docs: readonly AssetInput[],
  years: readonly number[],
): Promise<Buffer[]> {
  const chunks: Uint8Array[] = [];
  const sink = {
    write: async (chunk: Uint8Array) => {
      chunks.push(Buffer.from(chunk));
    },
  };
  await writeAssetWorkbook(sink, docs, { years }, nativeDeflate);
  return [...zipEntries(Buffer.concat(chunks))].map((entry) => entry.xml);
}

/**
 * The export's floor: the same XML, already in memory, each part packed whole by the same compressor
 * at the same level (Node's zlib, raw deflate, level 1, as `electron/workbook/native-deflate.ts`),
 * with the CRC-32 a ZIP must carry for it. Nothing is left to do but the ZIP's headers, which are a
 * few hundred bytes: building the XML and handing it over in pieces is the export's own cost, and
 * what the ratio shows. The export deflates its pieces in Node's thread pool while it builds the
 * next ones, so on a free second core its wall time can come near the floor's; its CPU time cannot
 * (building the XML costs more than deflating it), which is why the line gives both ratios.
 */
export function deflateFloor(parts: readonly Buffer[]): { bytes: number } {
  let bytes = 0;
  for (const part of parts) {
    crc32(part);
    bytes += deflateRawSync(part, { level: 1, finishFlush: constants.Z_FINISH }).length;
  }
  return { bytes };
}

const cellOpen = Buffer.from('<c ');
const cellClose = Buffer.from('</c>');
const CENTRAL_ENTRY = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;

/** Each entry of a ZIP (found through its central directory), inflated whole in one call, in turn. */
function* zipEntries(zip: Buffer, file = 'the book'): Generator<{ name: string; xml: Buffer }> {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END_OF_DIRECTORY) end--;
  if (end < 0) throw new Error(`${file} is not a ZIP`);
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let n = 0; n < entries; n++) {
    if (zip.readUInt32LE(at) !== CENTRAL_ENTRY) throw new Error('bad central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataAt, dataAt + compressed);
    yield { name, xml: method === 8 ? inflateRawSync(raw) : raw };
  }
}

/**
 * The import's floor: the file read whole, every part found through the ZIP's central directory and
 * inflated in one call (no stream, no limits), and each cell's tags found (its `<c ` and `</c>`) by
 * the native byte search. Fewer steps cannot give the cells: whatever the import does beyond this
 * (decoding text, reading values, typing them against the columns, matching rows to the workspace)
 * is its own cost. Returns the cells found, which must equal the cells the import read.
 */
export function inflateAndScanFloor(file: string): { cells: number; unpacked: number } {
  let cells = 0;
  let unpacked = 0;
  for (const { name, xml } of zipEntries(readFileSync(file), file)) {
    unpacked += xml.length;
    if (!name.startsWith('xl/worksheets/')) continue;
    for (let i = xml.indexOf(cellOpen); i !== -1; i = xml.indexOf(cellOpen, i)) {
      const close = xml.indexOf(cellClose, i);
      if (close === -1) break;
      cells++;
      i = close + cellClose.length;
    }
  }
  return { cells, unpacked };
}
