/**
 * dist/licenses.txt: every npm package whose code is in the bundle, with its version, its license
 * and the license text (and NOTICE) it ships, so that the bundle redistributes them with their
 * notices.
 *
 * Why not ncc's `--license`: its webpack plugin writes one file per chunk under the same name, so
 * the last chunk written wins and the entry chunk's packages (@actions/core, undici, ...) were
 * left out. The package list here comes from webpack's stats of the same build: every module of
 * every chunk, the modules webpack concatenated into one included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { packageChainOf, packageDirOf } from './package-paths.ts';

/** The part of webpack's stats JSON (`ncc --stats-out`) this reads. */
const StatsModuleSchema: z.ZodType<StatsModule> = z.lazy(() =>
  z.looseObject({
    name: z.string(),
    chunks: z.array(z.unknown()).optional(),
    modules: z.array(StatsModuleSchema).optional(),
  }),
);
interface StatsModule {
  name: string;
  chunks?: unknown[] | undefined;
  modules?: StatsModule[] | undefined;
}
const BundleStatsSchema = z.looseObject({ modules: z.array(StatsModuleSchema) });

/**
 * The paths of the modules whose code is in a chunk. A module webpack concatenated into another
 * is listed inside that one (and again at the top level as an orphan with no chunk of its own).
 */
export function bundledModulePaths(statsJson: unknown): string[] {
  const paths = new Set<string>();
  const visit = (modules: StatsModule[], inChunk: boolean): void => {
    for (const module of modules) {
      const bundled = inChunk || (module.chunks?.length ?? 0) > 0;
      if (bundled) paths.add(module.name);
      if (module.modules) visit(module.modules, bundled);
    }
  };
  visit(BundleStatsSchema.parse(statsJson).modules, false);
  return [...paths].sort();
}

/** Where each package with code in the bundle is installed (node_modules/a/node_modules/b). */
export function bundledPackageDirs(modulePaths: string[]): string[] {
  const dirs = new Set<string>();
  for (const path of modulePaths) {
    const chain = packageChainOf(path);
    if (chain.length > 0) dirs.add(packageDirOf(chain));
  }
  return [...dirs].sort();
}

export interface PackageLicense {
  name: string;
  version: string;
  /** The package.json `license` field: an SPDX expression such as `MIT`. */
  license: string;
  text: string;
  /** A NOTICE file's text, which Apache-2.0 asks redistributors to keep. */
  notice?: string;
}

const PackageJsonSchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  license: z.union([z.string(), z.looseObject({ type: z.string() })]).optional(),
});

const LICENSE_FILE = /^licen[cs]e(?:[.-].*)?$/i;
const NOTICE_FILE = /^notice(?:\..*)?$/i;

function readText(path: string): string {
  return readFileSync(path, 'utf8').replace(/\r\n?/g, '\n').trimEnd();
}

/** The license of the package installed in `dir` (relative to `root`); throws when it has none. */
export function readPackageLicense(root: string, dir: string): PackageLicense {
  const packageJson = PackageJsonSchema.parse(
    JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')),
  );
  const files = readdirSync(join(root, dir)).sort();
  const licenseFile = files.find((file) => LICENSE_FILE.test(file));
  const noticeFile = files.find((file) => NOTICE_FILE.test(file));
  const license =
    typeof packageJson.license === 'object' ? packageJson.license.type : packageJson.license;
  if (licenseFile === undefined || license === undefined) {
    // Shipping a package's code without its license text is not allowed: fail the build loudly.
    throw new Error(
      `${packageJson.name}@${packageJson.version} (${dir}) is bundled but has no ${licenseFile === undefined ? 'LICENSE file' : 'license field in package.json'}: add its license text to the build (scripts/licenses.ts) or stop bundling it.`,
    );
  }
  return {
    name: packageJson.name,
    version: packageJson.version,
    license,
    text: readText(join(root, dir, licenseFile)),
    ...(noticeFile === undefined ? {} : { notice: readText(join(root, dir, noticeFile)) }),
  };
}

/** The line that opens each package's entry; the next line is `name@version`. */
export const ENTRY_SEPARATOR = '='.repeat(80);

/** The file's text: an explanation, then one entry per package in name order. */
export function formatLicenses(licenses: PackageLicense[]): string {
  const sorted = [...licenses].sort(
    (a, b) => a.name.localeCompare(b.name, 'en') || a.version.localeCompare(b.version, 'en'),
  );
  const header = [
    'deploy-action bundles the npm packages below into dist/. Each is listed with its version,',
    'its license and the license text it ships. Written by `npm run build` (scripts/licenses.ts)',
    "from the bundle's own module list; do not edit.",
  ].join('\n');
  const entries = sorted.map((entry) =>
    [
      ENTRY_SEPARATOR,
      `${entry.name}@${entry.version}`,
      `License: ${entry.license}`,
      '',
      entry.text,
      ...(entry.notice === undefined ? [] : ['NOTICE:', '', entry.notice]),
    ].join('\n'),
  );
  return `${[header, ...entries].join('\n\n').trimEnd()}\n`;
}

/** The `name@version` of every entry of a licenses.txt written by formatLicenses. */
export function licensedPackages(text: string): string[] {
  const lines = text.split('\n');
  return lines.flatMap((line, index) => {
    const next = lines[index + 1];
    return line === ENTRY_SEPARATOR && next !== undefined ? [next] : [];
  });
}

/** licenses.txt for a build: its stats JSON and the folder its node_modules are in. */
export function licensesOfBuild(statsJson: unknown, root: string): string {
  const dirs = bundledPackageDirs(bundledModulePaths(statsJson));
  return formatLicenses(dirs.map((dir) => readPackageLicense(root, dir)));
}
