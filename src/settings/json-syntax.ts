/**
 * Finds the first syntax problem of a JSON text and where it is, in words a workflow author
 * understands. Why not just JSON.parse's message: V8's messages quote the surrounding text
 * (which for `secrets` would print secret values), some carry no position at all, and
 * JSON.parse silently keeps the last of two equal keys, which hides a mistake.
 * The scanner is iterative (an explicit stack), so deep nesting cannot overflow the call stack.
 */
interface JsonSyntaxProblem {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  /** What is wrong, without quoting the text (except a duplicate key's name). */
  problem: string;
}

interface JsonSyntaxOptions {
  /** Name a duplicate key in the problem. Default true; false where keys may be secret. */
  showKeys?: boolean;
}

/** The first problem, or undefined when JSON.parse will accept the text and keys are unique. */
export function findJsonSyntaxProblem(
  text: string,
  options: JsonSyntaxOptions = {},
): JsonSyntaxProblem | undefined {
  try {
    new JsonScanner(text, options.showKeys ?? true).scanDocument();
    return undefined;
  } catch (error) {
    if (!(error instanceof ProblemAt)) throw error;
    return { ...lineAndColumn(text, error.offset), problem: error.problem };
  }
}

class ProblemAt extends Error {
  readonly offset: number;
  readonly problem: string;

  constructor(offset: number, problem: string) {
    super(problem);
    this.offset = offset;
    this.problem = problem;
  }
}

interface Container {
  closer: '}' | ']';
  keys: Set<string>;
}

type Expecting = 'value' | 'separator' | 'done';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SIMPLE_ESCAPES = '"\\/bfnrt';
const LITERALS = ['true', 'false', 'null'] as const;

class JsonScanner {
  readonly #text: string;
  readonly #showKeys: boolean;
  readonly #stack: Container[] = [];
  #pos = 0;

  constructor(text: string, showKeys: boolean) {
    this.#text = text;
    this.#showKeys = showKeys;
  }

  scanDocument(): void {
    let expecting: Expecting = 'value';
    while (expecting !== 'done') {
      expecting = expecting === 'value' ? this.#value() : this.#separator();
    }
  }

  #value(): Expecting {
    this.#skipWhitespace();
    const char = this.#text[this.#pos];
    if (char === '{' || char === '[') return this.#open(char);
    if (char === '"') {
      this.#string();
      return 'separator';
    }
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
      this.#number();
      return 'separator';
    }
    const literal = LITERALS.find((word) => this.#text.startsWith(word, this.#pos));
    if (literal !== undefined) {
      this.#pos += literal.length;
      return 'separator';
    }
    if (char === undefined) throw this.#problem('the text ends where a value is expected');
    if (/[\p{L}_]/u.test(char)) {
      throw this.#problem('expected a value; text values need "double quotes"');
    }
    throw this.#problem('expected a value');
  }

  #open(char: '{' | '['): Expecting {
    this.#pos++;
    const container: Container = { closer: char === '{' ? '}' : ']', keys: new Set() };
    this.#stack.push(container);
    this.#skipWhitespace();
    if (this.#text[this.#pos] === container.closer) {
      this.#pos++;
      this.#stack.pop();
      return 'separator';
    }
    if (container.closer === '}') this.#key(container);
    return 'value';
  }

  /** After a value: a comma, the end of the enclosing container, or the end of the text. */
  #separator(): Expecting {
    this.#skipWhitespace();
    const container = this.#stack.at(-1);
    const char = this.#text[this.#pos];
    if (container === undefined) {
      if (char === undefined) return 'done';
      throw this.#problem('unexpected text after the end of the JSON value');
    }
    if (char === container.closer) {
      this.#pos++;
      this.#stack.pop();
      return 'separator';
    }
    if (char === ',') {
      this.#pos++;
      this.#skipWhitespace();
      if (this.#text[this.#pos] === container.closer) {
        throw this.#problem(`JSON allows no comma before "${container.closer}"`);
      }
      if (container.closer === '}') this.#key(container);
      return 'value';
    }
    if (char === undefined)
      throw this.#problem(`the text ends before the closing "${container.closer}"`);
    throw this.#problem(`expected "," or "${container.closer}" after a value`);
  }

  /** A property name and its colon. */
  #key(container: Container): void {
    this.#skipWhitespace();
    const start = this.#pos;
    if (this.#text[start] !== '"')
      throw this.#problem('expected a property name in "double quotes"');
    this.#string();
    const key = JSON.parse(this.#text.slice(start, this.#pos)) as string;
    if (container.keys.has(key)) {
      const shown = this.#showKeys ? ` ${JSON.stringify(key)}` : '';
      throw new ProblemAt(start, `duplicate key${shown}`);
    }
    container.keys.add(key);
    this.#skipWhitespace();
    if (this.#text[this.#pos] !== ':') throw this.#problem('expected ":" after the property name');
    this.#pos++;
  }

  #string(): void {
    const start = this.#pos;
    this.#pos++;
    for (;;) {
      const char = this.#text[this.#pos];
      if (char === undefined) throw new ProblemAt(start, 'this string has no closing quote');
      if (char === '"') {
        this.#pos++;
        return;
      }
      if (char === '\\') {
        this.#escape();
      } else if (char < ' ') {
        throw this.#problem(
          char === '\n'
            ? 'a line break inside a string must be written as \\n'
            : 'a control character inside a string must be escaped',
        );
      } else {
        this.#pos++;
      }
    }
  }

  #escape(): void {
    const kind = this.#text[this.#pos + 1];
    if (kind !== undefined && SIMPLE_ESCAPES.includes(kind)) {
      this.#pos += 2;
    } else if (
      kind === 'u' &&
      /^[0-9a-fA-F]{4}$/.test(this.#text.slice(this.#pos + 2, this.#pos + 6))
    ) {
      this.#pos += 6;
    } else {
      throw this.#problem('invalid escape sequence in a string');
    }
  }

  #number(): void {
    NUMBER.lastIndex = this.#pos;
    if (!NUMBER.test(this.#text)) throw this.#problem('invalid number');
    this.#pos = NUMBER.lastIndex;
  }

  #skipWhitespace(): void {
    for (;;) {
      const char = this.#text[this.#pos];
      if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return;
      this.#pos++;
    }
  }

  #problem(problem: string): ProblemAt {
    return new ProblemAt(this.#pos, problem);
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}
