/**
 * Which npm package a bundled source file belongs to, from its path alone. Shared by the build's
 * license list (webpack stats names: `./node_modules/undici/lib/...`) and the benchmark's package
 * shares (source map sources: `webpack://deploy-action/../node_modules/...`).
 */

/** Path segments of a module or source path, without webpack's prefix and `.`/`..` parts. */
function segmentsOf(sourcePath: string): string[] {
  return sourcePath
    .replace(/^webpack:\/\/[^/]*\//, '')
    .split('/')
    .filter((part) => part !== '..' && part !== '.');
}

/** The packages on the way to a file: ['@actions/http-client', 'undici'] for a nested copy. */
export function packageChainOf(sourcePath: string): string[] {
  const parts = segmentsOf(sourcePath);
  const chain: string[] = [];
  parts.forEach((part, index) => {
    if (part !== 'node_modules') return;
    const first = parts[index + 1];
    if (first === undefined) return;
    chain.push(first.startsWith('@') ? `${first}/${parts[index + 2] ?? ''}` : first);
  });
  return chain;
}

/** node_modules/a/node_modules/b: where the package's package.json is, from the repository root. */
export function packageDirOf(chain: string[]): string {
  return chain.map((name) => `node_modules/${name}`).join('/');
}
