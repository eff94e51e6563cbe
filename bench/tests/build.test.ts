import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeWithoutMapComment } from '../build.ts';

const dir = mkdtempSync(join(tmpdir(), 'bench-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function strip(code: string): Promise<string> {
  const file = join(dir, 'index.js');
  writeFileSync(file, code);
  return codeWithoutMapComment(file);
}

describe('codeWithoutMapComment', () => {
  it('gives back the bytes the build writes without a map, for the entry and for chunks', async () => {
    expect(await strip('var n=1;\n//# sourceMappingURL=index.js.map')).toBe('var n=1;');
    expect(await strip('};\n\n//# sourceMappingURL=413.index.js.map')).toBe('};\n');
  });

  it('leaves code without a trailing map comment as it is', async () => {
    const code = '//# sourceMappingURL=inner.js.map\nvar n=1;\n';
    expect(await strip(code)).toBe(code);
  });
});
