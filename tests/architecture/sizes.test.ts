import { describe, expect, it } from 'vitest';
import { sourceFiles } from './import-graph';
import { componentSizes, fileLines } from './sizes';

/**
 * The guide's sizes (issue 35): a file over ~400 lines holds more than one concern, a React
 * component whose body passes 150 lines draws more than one thing. Tests are exempt (a test file is
 * a list of cases), and so are files that are data.
 */
const maxFileLines = 400;
const maxComponentBodyLines = 150;
const sourceFolders = ['electron', 'shared', 'renderer', 'sandbox', 'bench'] as const;

/** Data, not code: tables read by the code, whose length is the data's. */
const dataFiles = new Set([
  // The service's data dictionary: every field with its type, unit and help text.
  'shared/domain/catalog.ts',
]);

describe('sizes', () => {
  const files = sourceFiles(sourceFolders);

  it(`no file is over ${maxFileLines} lines unless it is data`, () => {
    const over = files
      .filter((file) => !dataFiles.has(file))
      .map((file) => ({ file, lines: fileLines(file) }))
      .filter(({ lines }) => lines > maxFileLines)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over, over.join('\n')).toEqual([]);
  });

  it(`no React component's body is over ${maxComponentBodyLines} lines`, () => {
    const over = files
      .filter((file) => file.endsWith('.tsx'))
      .flatMap((file) => componentSizes(file).map((size) => ({ file, ...size })))
      .filter(({ lines }) => lines >= maxComponentBodyLines)
      .map(({ file, name, lines }) => `${file}: ${name}, ${lines} lines`);
    expect(over, over.join('\n')).toEqual([]);
  });
});
