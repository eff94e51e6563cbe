import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { directDependents } from '../dependents.ts';
import { BUNDLER_GLUE, OWN_CODE, packageChainOf, packageOf, sharesByPackage } from '../packages.ts';
import { UNMAPPED } from '../source-map.ts';

const root = mkdtempSync(join(tmpdir(), 'bench-packages-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function install(dir: string, version: string): void {
  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, dir, 'package.json'), JSON.stringify({ version }));
}
install('node_modules/undici', '8.0.0');
install('node_modules/@actions/http-client', '4.0.0');
install('node_modules/@actions/http-client/node_modules/undici', '6.0.0');
writeFileSync(
  join(root, 'package-lock.json'),
  JSON.stringify({
    packages: {
      '': { dependencies: { '@actions/core': '^3', undici: '^8' } },
      'node_modules/@actions/core': { dependencies: { '@actions/http-client': '^4' } },
      'node_modules/@actions/http-client': { dependencies: { undici: '^6', tunnel: '^0' } },
      'node_modules/@actions/http-client/node_modules/undici': {},
      'node_modules/tunnel': {},
      'node_modules/undici': {},
    },
  }),
);

describe('packageChainOf', () => {
  it('lists the packages on the way to a file, scoped names included', () => {
    expect(
      packageChainOf('../node_modules/@actions/http-client/node_modules/undici/lib/api/index.js'),
    ).toEqual(['@actions/http-client', 'undici']);
    expect(packageChainOf('webpack://deploy-action/../node_modules/zod/v4/core/core.js')).toEqual([
      'zod',
    ]);
    expect(packageChainOf('../src/api/http.ts')).toEqual([]);
  });
});

describe('packageOf', () => {
  it('names a nested copy with its version and the package that holds it', () => {
    expect(
      packageOf(root, '../node_modules/@actions/http-client/node_modules/undici/a.js'),
    ).toEqual({
      label: 'undici@6.0.0 via @actions/http-client',
      dir: 'node_modules/@actions/http-client/node_modules/undici',
    });
    expect(packageOf(root, '../node_modules/undici/index.js').label).toBe('undici@8.0.0');
  });

  it('tells our code from the bundler glue', () => {
    expect(packageOf(root, '../src/main.ts').label).toBe(OWN_CODE);
    expect(packageOf(root, 'webpack/runtime/define property getters').label).toBe(BUNDLER_GLUE);
    expect(packageOf(root, '../external node-commonjs "node:http"').label).toBe(BUNDLER_GLUE);
    expect(packageOf(root, UNMAPPED).label).toBe(BUNDLER_GLUE);
  });
});

describe('sharesByPackage', () => {
  it('adds up the files of each package, largest first', () => {
    const shares = sharesByPackage(
      root,
      new Map([
        ['../node_modules/undici/a.js', 10],
        ['../src/main.ts', 30],
        ['../node_modules/undici/b.js', 25],
        [UNMAPPED, 1],
      ]),
    );
    expect(shares.map(({ label, bytes, files }) => [label, bytes, files])).toEqual([
      ['undici@8.0.0', 35, 2],
      [OWN_CODE, 30, 1],
      [BUNDLER_GLUE, 1, 0],
    ]);
  });
});

describe('directDependents', () => {
  const dependentsOf = directDependents(root);

  it('finds the direct dependency that pulls a nested package in', () => {
    expect(dependentsOf('node_modules/@actions/http-client/node_modules/undici')).toEqual([
      '@actions/core',
    ]);
    expect(dependentsOf('node_modules/tunnel')).toEqual(['@actions/core']);
  });

  it('tells a direct dependency apart from a nested copy of the same name', () => {
    expect(dependentsOf('node_modules/undici')).toEqual(['undici']);
  });
});
