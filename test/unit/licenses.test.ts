/**
 * The build's license list (scripts/licenses.ts): which packages a build's stats say are bundled,
 * how each one's license is read, and the file it writes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bundledModulePaths,
  bundledPackageDirs,
  ENTRY_SEPARATOR,
  formatLicenses,
  licensedPackages,
  licensesOfBuild,
  readPackageLicense,
} from '../../scripts/licenses.ts';

const root = mkdtempSync(join(tmpdir(), 'licenses-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function install(dir: string, packageJson: object, files: Record<string, string>): void {
  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, dir, 'package.json'), JSON.stringify(packageJson));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, dir, name), text);
}

install(
  'node_modules/@actions/core',
  { name: '@actions/core', version: '3.0.1', license: 'MIT' },
  { 'LICENSE.md': 'The MIT License (MIT)\r\n\r\nCopyright 2019 GitHub\r\n' },
);
install(
  'node_modules/before-after-hook',
  { name: 'before-after-hook', version: '4.0.0', license: { type: 'Apache-2.0' } },
  { LICENCE: 'Apache License\nVersion 2.0\n\n\n', NOTICE: 'Copyright Gregor Martynus\n' },
);
install(
  'node_modules/@actions/http-client/node_modules/undici',
  { name: 'undici', version: '6.0.0', license: 'MIT' },
  { 'LICENSE-MIT': 'MIT License\n\nCopyright (c) Matteo Collina and Undici contributors\n' },
);
install('node_modules/no-license-file', { name: 'no-license-file', version: '1.0.0' }, {});
install(
  'node_modules/no-license-field',
  { name: 'no-license-field', version: '2.0.0' },
  { LICENSE: 'text' },
);

/** webpack stats as ncc --stats-out writes them, cut down to what the list reads. */
const STATS = {
  modules: [
    { name: './src/index.ts', chunks: [792] },
    {
      name: './src/main.ts + 2 modules',
      chunks: [792],
      modules: [
        { name: './src/main.ts', chunks: [] },
        { name: './node_modules/@actions/core/lib/core.js', chunks: [] },
        { name: './node_modules/before-after-hook/index.js', chunks: [] },
      ],
    },
    // The same module again, as the orphan a concatenated module also is.
    { name: './node_modules/@actions/core/lib/core.js', chunks: [], orphan: true },
    // In the compilation but in no chunk: its code is not in the bundle.
    { name: './node_modules/dropped/index.js', chunks: [] },
    {
      name: './node_modules/@actions/http-client/node_modules/undici/index.js',
      chunks: [413],
    },
    { name: 'external "node:fs"', chunks: [792] },
  ],
};

describe('bundledModulePaths', () => {
  it('lists the modules of every chunk, concatenated ones included, and no orphan', () => {
    expect(bundledModulePaths(STATS)).toEqual([
      './node_modules/@actions/core/lib/core.js',
      './node_modules/@actions/http-client/node_modules/undici/index.js',
      './node_modules/before-after-hook/index.js',
      './src/index.ts',
      './src/main.ts',
      './src/main.ts + 2 modules',
      'external "node:fs"',
    ]);
  });

  it('fails on stats without a module list', () => {
    expect(() => bundledModulePaths({ assets: [] })).toThrow();
  });
});

describe('bundledPackageDirs', () => {
  it('gives each package once, nested copies by their own folder, our code and externals none', () => {
    expect(bundledPackageDirs(bundledModulePaths(STATS))).toEqual([
      'node_modules/@actions/core',
      'node_modules/@actions/http-client/node_modules/undici',
      'node_modules/before-after-hook',
    ]);
  });
});

describe('readPackageLicense', () => {
  it('reads the license field and the LICENSE file, whatever its spelling and line ends', () => {
    expect(readPackageLicense(root, 'node_modules/@actions/core')).toEqual({
      name: '@actions/core',
      version: '3.0.1',
      license: 'MIT',
      text: 'The MIT License (MIT)\n\nCopyright 2019 GitHub',
    });
    expect(
      readPackageLicense(root, 'node_modules/@actions/http-client/node_modules/undici').text,
    ).toContain('Matteo Collina');
  });

  it('keeps the NOTICE file, and reads the old object form of the license field', () => {
    expect(readPackageLicense(root, 'node_modules/before-after-hook')).toMatchObject({
      license: 'Apache-2.0',
      text: 'Apache License\nVersion 2.0',
      notice: 'Copyright Gregor Martynus',
    });
  });

  it('fails the build, naming the package, when a license text or field is missing', () => {
    expect(() => readPackageLicense(root, 'node_modules/no-license-file')).toThrow(
      'no-license-file@1.0.0 (node_modules/no-license-file) is bundled but has no LICENSE file',
    );
    expect(() => readPackageLicense(root, 'node_modules/no-license-field')).toThrow(
      'no-license-field@2.0.0 (node_modules/no-license-field) is bundled but has no license field',
    );
  });
});

describe('formatLicenses and licensedPackages', () => {
  const text = licensesOfBuild(STATS, root);

  it('writes one entry per bundled package, in name order, with its license and text', () => {
    expect(licensedPackages(text)).toEqual([
      '@actions/core@3.0.1',
      'before-after-hook@4.0.0',
      'undici@6.0.0',
    ]);
    const undici = text.slice(text.indexOf(`${ENTRY_SEPARATOR}\nundici@6.0.0`));
    expect(undici).toBe(
      `${ENTRY_SEPARATOR}\nundici@6.0.0\nLicense: MIT\n\nMIT License\n\nCopyright (c) Matteo Collina and Undici contributors\n`,
    );
    expect(text).toContain('NOTICE:\n\nCopyright Gregor Martynus');
  });

  it('writes the same text whatever order the packages come in', () => {
    const licenses = [
      readPackageLicense(root, 'node_modules/before-after-hook'),
      readPackageLicense(root, 'node_modules/@actions/core'),
    ];
    expect(formatLicenses(licenses)).toBe(formatLicenses([...licenses].reverse()));
  });

  it('finds no entry in a text without separators', () => {
    expect(licensedPackages('zod\nMIT\nsome text\n')).toEqual([]);
  });
});
