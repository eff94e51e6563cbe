/**
 * What a person sees on GitHub, from what a step wrote: the log as the runner shows it (workflow
 * commands obeyed, not printed), and the job summary roughly as GitHub renders its Markdown.
 * Used by `npm run demo`, so that it shows the action as its users meet it.
 *
 * The runner, per https://docs.github.com/actions/reference/workflow-commands-for-github-actions:
 * - `::add-mask::VALUE` is consumed, and VALUE is shown as `***` in every later line;
 * - `::group::TITLE` opens a collapsible group, `::endgroup::` closes it;
 * - `::debug::` lines are hidden unless step debug logging is on;
 * - `::notice::`, `::warning::` and `::error::` show their message as an annotation;
 * - command data is %-encoded (`%0A` newline, `%0D` carriage return, `%25` percent).
 */

const MASK = '***';
const COMMAND = /^\s*::([A-Za-z-]+)(?: [^:]*)?::(.*)$/;
const ANNOTATION_LABELS: Readonly<Record<string, string>> = {
  notice: 'Notice',
  warning: 'Warning',
  error: 'Error',
};

function decodeData(data: string): string {
  const codes: Record<string, string> = { '%25': '%', '%0D': '\r', '%0A': '\n' };
  return data.replace(/%(?:25|0D|0A)/gi, (code) => codes[code.toUpperCase()] ?? code);
}

export interface LogViewOptions {
  /** Show `::debug::` lines, as step debug logging does. */
  debug?: boolean;
}

/** The log of a step as the runner displays it. */
export function runnerLogView(stdout: string, options: LogViewOptions = {}): string {
  const masks: string[] = [];
  const mask = (text: string): string => {
    let shown = text;
    for (const value of masks) shown = shown.replaceAll(value, MASK);
    return shown;
  };
  const shown: string[] = [];
  let indent = '';
  for (const line of stdout.replace(/\n$/, '').split('\n')) {
    const command = COMMAND.exec(line);
    if (!command) {
      shown.push(`${indent}${mask(line)}`);
      continue;
    }
    const [, name = '', data = ''] = command;
    const text = decodeData(data);
    if (name === 'add-mask') {
      if (text.trim() !== '') {
        masks.push(text);
        masks.sort((a, b) => b.length - a.length);
      }
    } else if (name === 'group') {
      shown.push(`${indent}▼ ${mask(text)}`);
      indent = '  ';
    } else if (name === 'endgroup') {
      indent = '';
    } else if (name === 'debug') {
      if (options.debug) shown.push(...prefixed(`${indent}##[debug]`, mask(text)));
    } else {
      const label = ANNOTATION_LABELS[name];
      // Any other command (set-output, stop-commands, ...) is not displayed by the runner.
      if (label) shown.push(...prefixed(`${indent}${label}: `, mask(text)));
    }
  }
  return shown.join('\n');
}

/** The first line after the label, the next ones indented under it. */
function prefixed(label: string, text: string): string[] {
  const pad = ' '.repeat(label.length);
  return text.split(/\r?\n/).map((line, index) => `${index === 0 ? label : pad}${line}`);
}

/**
 * The job summary roughly as GitHub shows it: backslash escapes, entities and zero-width
 * breaks undone, hard line breaks dropped. Tables and headings stay as they read in Markdown.
 */
export function summaryView(markdown: string): string {
  return markdown
    .replace(/(?<!\\)\[([^\]]*)\]\(<([^>]*)>\)/g, (_match, label: string, href: string) => {
      const text = label.replace(/\\([!-/:-@[-`{-~])/g, '$1').replace(/&#8203;/g, '');
      return text === href || text === href.replace(/\/$/, '') ? href : `${label} (${href})`;
    })
    .replace(/ {2}$/gm, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&#8203;/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/<sub>|<\/sub>/g, '');
}
