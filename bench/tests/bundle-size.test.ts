import { describe, expect, it } from 'vitest';
import { startChunks } from '../bundle-size.ts';

describe('startChunks', () => {
  it("names the chunks index.js loads: the entry's dynamic import", () => {
    const entry =
      'var r=t(3340);const{run:e}=await Promise.all([t.e(452),t.e(234)]).then(t.bind(t,7234));await e()';
    expect(startChunks(entry)).toEqual(['234.index.js', '452.index.js']);
  });

  it('names none when index.js loads every module itself', () => {
    expect(startChunks('var r=__nccwpck_require__(9407);r=await r;')).toEqual([]);
  });
});
