/**
 * dist/licenses.txt names every npm package whose code is in dist/. The bundled packages are
 * found here another way than the build finds them: src/ is bundled again with source maps (the
 * code must be byte for byte dist/'s, so the maps describe dist/), and the maps' sources name the
 * files each byte came from (bench/bundle-size.ts), where the build reads webpack's stats.
 *
 * CI has that bundle already: the one it built with maps and compared with dist/
 * (scripts/check-dist.ts), named by DIST_BUILD, so nothing is built again. Run alone, this
 * builds it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measureBundleSize } from '../../bench/bundle-size.ts';
import { licensedPackages } from '../../scripts/licenses.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'dist-licenses-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('dist/licenses.txt', () => {
  it('names every package whose code is in dist/, at its bundled version', async () => {
    const built = process.env.DIST_BUILD;
    const bundle = await measureBundleSize(join(built ?? join(ROOT, 'dist'), 'index.js'), scratch);
    // A stale dist/ would make the maps describe other code: rebuild it first.
    expect(bundle.staleNote).toBeUndefined();
    const bundled = bundle.packages
      .filter((row) => row.dir !== undefined)
      .map((row) => row.label.replace(/ via .*$/, ''))
      .sort();
    // Sanity: the packages every run needs are found in the maps at all.
    expect(bundled).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^@actions\/core@/),
        expect.stringMatching(/^undici@/),
      ]),
    );

    const licensed = licensedPackages(readFileSync(join(ROOT, 'dist', 'licenses.txt'), 'utf8'));
    expect(bundled.filter((name) => !licensed.includes(name))).toEqual([]);
    // And nothing listed that is not bundled (a package dropped from the bundle leaves the list).
    expect(licensed.filter((name) => !bundled.includes(name))).toEqual([]);
  }, 180_000);
});
