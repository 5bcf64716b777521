/**
 * How big a file and a React component are, measured as the guide says: a file's lines, and a
 * component's body from its opening brace to its closing one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from './import-graph';

export function fileLines(file: string): number {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

export interface ComponentSize {
  name: string;
  lines: number;
}

const isComponentName = (name: string): boolean => /^[A-Z][A-Za-z0-9]*$/.test(name);

/** A function, possibly wrapped (`memo(...)`, `forwardRef(...)`), as a component's definition. */
function unwrapFunction(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return node;
  if (ts.isCallExpression(node)) {
    for (const arg of node.arguments) {
      const inner = unwrapFunction(arg);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Every PascalCase function of a .tsx file (declared, or assigned to a const) and its body's lines. */
export function componentSizes(file: string): ComponentSize[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const sizes: ComponentSize[] = [];
  const bodyLines = (body: ts.Node): number =>
    source.getLineAndCharacterOfPosition(body.getEnd()).line -
    source.getLineAndCharacterOfPosition(body.getStart(source)).line +
    1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name && node.body && isComponentName(node.name.text)) {
      sizes.push({ name: node.name.text, lines: bodyLines(node.body) });
    } else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const fn = isComponentName(node.name.text) ? unwrapFunction(node.initializer) : undefined;
      if (fn?.body) sizes.push({ name: node.name.text, lines: bodyLines(fn.body) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sizes;
}
