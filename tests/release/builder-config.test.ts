/**
 * The release configuration, checked as far as a machine without Electron downloads allows:
 * electron-builder's own schema, the settings a working package depends on, and where the packager
 * would take the app's files and native modules from (printed, for the release notes).
 * `electron-builder --dir` itself needs the Electron zip from GitHub, which CI cannot fetch.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const root = fileURLToPath(new URL('../../', import.meta.url));
const configFile = join(root, 'electron-builder.yml');
const nativeModules = ['better-sqlite3', 'keytar'] as const;

const targetList = z.array(z.union([z.string(), z.object({ target: z.string(), arch: z.array(z.string()).optional() })]));
const builderConfig = z.object({
  appId: z.string(),
  productName: z.string(),
  icon: z.string(),
  directories: z.object({ buildResources: z.string(), output: z.string() }),
  files: z.array(z.string()),
  asar: z.boolean(),
  asarUnpack: z.array(z.string()),
  npmRebuild: z.boolean(),
  buildDependenciesFromSource: z.boolean(),
  linux: z.object({ target: targetList, maintainer: z.string() }),
  win: z.object({ target: targetList }),
  mac: z.object({ target: targetList }),
});
const packageJson = z.object({
  name: z.string(),
  version: z.string(),
  main: z.string(),
  dependencies: z.record(z.string(), z.string()).default({}),
  optionalDependencies: z.record(z.string(), z.string()).default({}),
  devDependencies: z.record(z.string(), z.string()).default({}),
  scripts: z.record(z.string(), z.string()).default({}),
});

/** A dependency's manifest: only the fields that say what it pulls in. */
const dependencyManifest = z.object({
  version: z.string().optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
  optionalDependencies: z.record(z.string(), z.string()).optional(),
  peerDependencies: z.record(z.string(), z.string()).optional(),
  peerDependenciesMeta: z.record(z.string(), z.object({ optional: z.boolean().optional() })).optional(),
});

const config = builderConfig.parse(load(readFileSync(configFile, 'utf8'), { filename: configFile }));
const appPackage = packageJson.parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
const targetNames = (list: z.infer<typeof targetList>): string[] =>
  list.map((t) => (typeof t === 'string' ? t : t.target));

/** electron-builder's file patterns: the last matching pattern decides, `!` excludes. */
function packaged(path: string, patterns: readonly string[]): boolean {
  let included = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    if (minimatch(path, negated ? pattern.slice(1) : pattern, { dot: true })) included = !negated;
  }
  return included;
}

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

const posix = (path: string): string => path.split(sep).join('/');

interface ProductionPackage {
  name: string;
  version: string;
  dir: string;
  binaries: string[];
}

/** Node's lookup: the package's own node_modules, then each parent's, up to the project. */
function resolvePackage(fromDir: string, name: string): string | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dirname(dir) === dir || !dir.startsWith(root)) return undefined;
    dir = dirname(dir);
  }
}

/** The production dependency closure, as the packager copies it into the app. */
function productionPackages(): Map<string, ProductionPackage> {
  const found = new Map<string, ProductionPackage>();
  const visit = (fromDir: string, name: string, optional: boolean): void => {
    const dir = resolvePackage(fromDir, name);
    if (!dir) {
      if (!optional) throw new Error(`Production dependency ${name} is not installed (from ${fromDir})`);
      return;
    }
    if (found.has(dir)) return;
    const pkg = dependencyManifest.parse(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
    found.set(dir, {
      name,
      version: pkg.version ?? '?',
      dir,
      binaries: walk(dir)
        .filter((file) => file.endsWith('.node'))
        .map((file) => posix(relative(root, file))),
    });
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dir, dep, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dir, dep, true);
    for (const dep of Object.keys(pkg.peerDependencies ?? {}))
      visit(dir, dep, pkg.peerDependenciesMeta?.[dep]?.optional ?? true);
  };
  for (const dep of Object.keys(appPackage.dependencies)) visit(root, dep, false);
  for (const dep of Object.keys(appPackage.optionalDependencies)) visit(root, dep, true);
  return found;
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own configuration schema', async () => {
    const require = createRequire(import.meta.url);
    const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      getConfig(projectDir: string, configPath: string | null, fromOptions: unknown): Promise<unknown>;
      validateConfiguration(config: unknown, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled?: boolean) => unknown };
    const loaded = await getConfig(root, configFile, null);
    await expect(validateConfiguration(loaded, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the app and gives it an icon the packager can convert for every platform', () => {
    expect(config.appId).toMatch(/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/);
    expect(config.productName).toBe('Asset Desk');
    const icon = join(root, config.icon);
    expect(existsSync(icon), `${config.icon} exists`).toBe(true);
    const png = readFileSync(icon);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // macOS needs at least 512x512 to make an .icns; Windows' .ico needs 256.
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
    expect(png.readUInt32BE(20)).toBe(png.readUInt32BE(16));
    expect(posix(relative(root, join(root, config.directories.buildResources)))).toBe('resources');
  });

  it('builds AppImage and deb for Linux, NSIS for Windows, DMG for macOS', () => {
    expect(targetNames(config.linux.target).sort()).toEqual(['AppImage', 'deb']);
    expect(targetNames(config.win.target)).toEqual(['nsis']);
    expect(targetNames(config.mac.target)).toEqual(['dmg']);
    // deb refuses to build without a maintainer (package.json has no author).
    expect(config.linux.maintainer).toMatch(/<.+@.+>/);
  });

  it('rebuilds the native modules for Electron from source and unpacks their binaries from the asar', () => {
    expect(config.npmRebuild).toBe(true);
    expect(config.buildDependenciesFromSource).toBe(true);
    expect(config.asar).toBe(true);
    for (const name of nativeModules) {
      const binaries = walk(join(root, 'node_modules', name))
        .map((file) => posix(relative(root, file)))
        .filter((file) => file.endsWith('.node') && packaged(file, ['**/*', ...config.files]));
      expect(binaries.length, `${name} has a built .node binary`).toBeGreaterThan(0);
      for (const binary of binaries)
        expect(
          config.asarUnpack.some((pattern) => minimatch(binary, pattern, { dot: true })),
          `${binary} is unpacked`,
        ).toBe(true);
    }
  });

  it('packages the built app (out/**) and package.json, never the tests or the sources', () => {
    expect(config.files).toContain('out/**');
    expect(config.files).toContain('!tests/**');
    const files = ['**/*', ...config.files].slice(1);
    expect(packaged('out/main/index.js', files)).toBe(true);
    expect(packaged('out/preload/index.cjs', files)).toBe(true);
    expect(packaged('out/renderer/index.html', files)).toBe(true);
    expect(packaged('package.json', files)).toBe(true);
    for (const path of [
      'tests/responses/app-responses.test.ts',
      'electron/main.ts',
      'sandbox/server.ts',
      'renderer/src/main.tsx',
      'bench/run.ts',
    ])
      expect(packaged(path, files), path).toBe(false);
    expect(packaged(appPackage.main, files), `main (${appPackage.main})`).toBe(true);
  });

  it('has the release scripts the README describes', () => {
    expect(appPackage.scripts['release']).toContain('electron-builder');
    expect(appPackage.scripts['release:dir']).toContain('--dir');
  });
});

describe('what the packager would take', () => {
  const packages = productionPackages();

  it('lists the app’s files and the production modules with their native binaries', () => {
    const appFiles = walk(join(root, 'out')).map((file) => ({
      path: posix(relative(root, file)),
      bytes: statSync(file).size,
    }));
    const lines = ['App files (out/**, into app.asar):'];
    for (const file of appFiles) lines.push(`  ${file.path}  ${file.bytes} B`);
    lines.push(`Production modules (${packages.size}, into app.asar/node_modules):`);
    const sorted = [...packages.values()].sort((a, b) => a.name.localeCompare(b.name));
    for (const pkg of sorted) {
      const native = pkg.binaries.filter((binary) => packaged(binary, ['**/*', ...config.files]));
      lines.push(`  ${pkg.name}@${pkg.version}  ${posix(relative(root, pkg.dir))}`);
      for (const binary of native) {
        const unpacked = config.asarUnpack.some((pattern) => minimatch(binary, pattern, { dot: true }));
        lines.push(`    native: ${binary}  ${unpacked ? '-> app.asar.unpacked' : 'INSIDE THE ASAR'}`);
      }
    }
    console.log(lines.join('\n'));
    if (existsSync(join(root, 'out', 'main', 'index.js')))
      expect(appFiles.some((file) => file.path === 'out/main/index.js')).toBe(true);
    const withNative = sorted.filter((pkg) =>
      pkg.binaries.some((binary) => packaged(binary, ['**/*', ...config.files])),
    );
    expect(withNative.map((pkg) => pkg.name).sort()).toEqual([...nativeModules]);
    expect(sorted.some((pkg) => pkg.name === 'electron')).toBe(false);
  });

  it('ships everything the main bundles (main and the embedded sandbox) import as a production module', () => {
    const bundle = join(root, 'out', 'main', 'index.js');
    if (!existsSync(bundle)) return expect.fail('out/main/index.js is missing: run `npx electron-vite build` first');
    // The sandbox is an entry of its own (out/main/sandbox.js), started as a utility process.
    expect(existsSync(join(root, 'out', 'main', 'sandbox.js'))).toBe(true);
    const source = walk(join(root, 'out', 'main'))
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
    const imported = new Set<string>();
    for (const match of source.matchAll(/\b(?:from\s*|import\(\s*|require\(\s*)["']([@a-z0-9][\w./@-]*)["']/g)) {
      const specifier = match[1] ?? '';
      if (builtins.has(specifier) || builtins.has(specifier.split('/')[0] ?? '')) continue;
      const parts = specifier.split('/');
      imported.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier));
    }
    imported.delete('electron');
    expect(imported.size).toBeGreaterThan(0);
    const shipped = new Set([...packages.values()].map((pkg) => pkg.name));
    for (const name of imported) expect(shipped.has(name), `${name} is a production dependency`).toBe(true);
    for (const name of ['fastify', '@fastify/multipart', 'better-sqlite3']) expect(imported.has(name)).toBe(true);
  });
});
