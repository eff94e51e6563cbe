import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { differingFiles } from '../../scripts/check-dist.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A folder holding these files. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'check-dist-'));
  folders.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('differingFiles: a build with source maps against dist/', () => {
  it('finds none when only the map comments and the maps differ', () => {
    const fresh = folder({
      'index.js': 'run();\n//# sourceMappingURL=index.js.map',
      'index.js.map': '{}',
      '12.index.js': 'chunk();\n//# sourceMappingURL=12.index.js.map',
      'deploy.js': "await import('./index.js');\n",
      'licenses.txt': 'undici MIT\n',
    });
    const dist = folder({
      'index.js': 'run();',
      '12.index.js': 'chunk();',
      'deploy.js': "await import('./index.js');\n",
      'licenses.txt': 'undici MIT\n',
    });
    expect(differingFiles(fresh, dist)).toEqual([]);
  });

  it('names changed code, a stale leftover chunk and a missing file', () => {
    const fresh = folder({
      'index.js': 'run(2);\n//# sourceMappingURL=index.js.map',
      'licenses.txt': 'undici MIT\n',
    });
    const dist = folder({ 'index.js': 'run(1);', '99.index.js': 'old();' });
    expect(differingFiles(fresh, dist).sort()).toEqual(['99.index.js', 'index.js', 'licenses.txt']);
  });
});
