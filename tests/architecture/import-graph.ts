/**
 * The import graph of our TypeScript sources, read with the compiler's own pre-processor
 * (`ts.preProcessFile`: static imports, `import type`, `export ... from`, dynamic `import()` and
 * `require`), relative specifiers resolved to files. Used by the architecture tests.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import ts from 'typescript';

export const repoRoot = join(__dirname, '..', '..');

/** Every .ts/.tsx file under the given folders (repo-relative, '/' separated), declarations aside. */
export function sourceFiles(folders: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path);
    }
  };
  for (const folder of folders) walk(folder);
  return found.sort();
}

/** The specifiers a file imports, as written. */
export function importSpecifiers(file: string): string[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  return ts.preProcessFile(text, true, true).importedFiles.map((ref) => ref.fileName);
}

/** A relative specifier resolved to one of `known` (repo-relative), or undefined (a package, a stylesheet). */
export function resolveImport(
  from: string,
  specifier: string,
  known: ReadonlySet<string>,
): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = normalize(join(dirname(from), specifier))
    .split(sep)
    .join('/')
    .replace(/\.js$/, '');
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** File → the files of ours it imports. */
export function importGraph(folders: readonly string[]): Map<string, string[]> {
  const files = sourceFiles(folders);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importSpecifiers(file)
      .map((specifier) => resolveImport(file, specifier, known))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The import circles: each strongly connected component of more than one file (or a file importing
 * itself), given as one closed path through it, e.g. `a.ts → b.ts → a.ts`.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the call stack.
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((component) => closedPath(graph, new Set(component))).sort();
}

/** One circle through a component: from its first file (sorted), the shortest way back to it. */
function closedPath(graph: ReadonlyMap<string, readonly string[]>, members: ReadonlySet<string>): string {
  const start = [...members].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at))
          path.splice(1, 0, at);
        return [...path, start].join(' → ');
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [...members].join(' ↔ ');
}
