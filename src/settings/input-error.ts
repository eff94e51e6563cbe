/**
 * The one error type every input parser throws. The action validates all inputs first and
 * reports every problem together (InputErrors), so a user fixes their workflow in one round.
 */
export class InputError extends Error {
  /** Name of the action input, as written in action.yml (e.g. `wait-timeout`). */
  readonly input: string;

  constructor(input: string, message: string) {
    super(message);
    this.name = 'InputError';
    this.input = input;
  }

  /**
   * One error for an input that has several independent problems (e.g. the lines of `secrets`
   * or the fields of `resource-spec`): one problem stays on one line, more become a list.
   */
  static withProblems(input: string, what: string, problems: readonly string[]): InputError {
    if (problems.length === 1)
      return new InputError(input, `Input '${input}' ${what}: ${problems[0]}`);
    const list = problems.map((problem) => `  - ${problem}`).join('\n');
    return new InputError(
      input,
      `Input '${input}' ${what} (${problems.length} problems):\n${list}`,
    );
  }
}

/** Several InputErrors, reported together. */
export class InputErrors extends Error {
  readonly errors: readonly InputError[];

  constructor(errors: readonly InputError[]) {
    const heading =
      errors.length === 1 ? 'An input is not valid:' : `${errors.length} inputs are not valid:`;
    super([heading, ...errors.map((error) => `- ${indentContinuation(error.message)}`)].join('\n'));
    this.name = 'InputErrors';
    this.errors = errors;
  }
}

/**
 * Runs parsers and keeps their InputErrors instead of stopping at the first, so that all input
 * problems can be reported at once. Any other error is a bug and propagates.
 */
export class InputErrorCollector {
  readonly errors: InputError[] = [];

  /** The parser's value, or undefined when it threw an InputError (which is kept). */
  attempt<T>(parse: () => T): T | undefined {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      this.errors.push(error);
      return undefined;
    }
  }

  /** Throws InputErrors when any attempt failed. */
  throwIfAny(): void {
    if (this.errors.length > 0) throw new InputErrors(this.errors);
  }
}

function indentContinuation(message: string): string {
  return message.replaceAll('\n', '\n  ');
}
