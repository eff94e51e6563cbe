import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/settings/input-error.ts';
import {
  parseSecrets,
  secretValues,
  unmaskedSecretNames,
  unmaskedSecretWarnings,
} from '../../src/settings/secrets.ts';

function inputErrorOf(parse: () => unknown): InputError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but the parser returned a value');
}

const env = { FROM_ENV: 'env-value', EMPTY_ENV: '' };

describe('parseSecrets: NAME=value lines', () => {
  it('reads values, quotes, comments, export and bare names', () => {
    const text = [
      '# database',
      'DB_USER=admin',
      '',
      'export DB_PASSWORD="p@ss word" # trailing comment',
      "TOKEN='single quoted'",
      'RAW=a#b=c "d"',
      '  SPACED  =  padded  ',
      'FROM_ENV',
      'export _UNDERSCORE=1',
    ].join('\n');
    expect(parseSecrets('secrets', text, env)).toEqual([
      { name: 'DB_USER', value: 'admin' },
      { name: 'DB_PASSWORD', value: 'p@ss word' },
      { name: 'TOKEN', value: 'single quoted' },
      { name: 'RAW', value: 'a#b=c "d"' },
      { name: 'SPACED', value: 'padded' },
      { name: 'FROM_ENV', value: 'env-value' },
      { name: '_UNDERSCORE', value: '1' },
    ]);
  });

  it('reads a quoted value over several lines and CRLF line ends', () => {
    const text = 'KEY="-----BEGIN KEY-----\r\nabc\r\n-----END KEY-----"\r\nNEXT=1\r\n';
    expect(parseSecrets('secrets', text, env)).toEqual([
      { name: 'KEY', value: '-----BEGIN KEY-----\nabc\n-----END KEY-----' },
      { name: 'NEXT', value: '1' },
    ]);
  });

  it('does not take a bare name from Object.prototype', () => {
    const error = inputErrorOf(() => parseSecrets('secrets', 'constructor', {}));
    expect(error.message).toMatch(/secret constructor has no value/);
  });

  it.each([
    ['just some text', /line 1 is neither NAME=value nor a bare NAME; write NAME=value/],
    [
      'A=1\n\nB',
      /line 3: secret B has no value and there is no environment variable of that name; write B=value, or add it to the step's env: \(B: \$\{\{ secrets\.B \}\}\)/,
    ],
    [
      'EMPTY_ENV',
      /line 1: secret EMPTY_ENV comes from an environment variable that is empty; if it is set from \$\{\{ secrets\.EMPTY_ENV \}\}/,
    ],
    [
      '1ABC=x',
      /line 1: the text before "=" is not a valid secret name \(letters, digits and underscores/,
    ],
    ['MY-KEY=x', /line 1: the text before "=" is not a valid secret name/],
    ['=x', /line 1: the text before "=" is not a valid secret name/],
    [
      'A=',
      /line 1: secret A is empty; if it comes from \$\{\{ secrets\.A \}\}, check that this secret exists/,
    ],
    ['A=""', /line 1: secret A is empty/],
    [
      'A="open\nB=2',
      /line 1: the value of A opens a " quote that is never closed; add the closing "/,
    ],
    ["A='x' y", /line 1: unexpected text after the closing ' of A; only a # comment may follow it/],
    ['A=1\nB=2\nA=3', /secret A is defined more than once \(lines 1, 3\); keep one/],
  ])('rejects %j', (value, message) => {
    const error = inputErrorOf(() => parseSecrets('secrets', value, env));
    expect(error.input).toBe('secrets');
    expect(error.message).toContain("Input 'secrets'");
    expect(error.message).toMatch(message);
  });

  it('reports every bad line in one error', () => {
    const error = inputErrorOf(() =>
      parseSecrets('secrets', 'oops!\nA=1\nmore oops\nMISSING', env),
    );
    expect(error.message).toMatch(/\(3 problems\)/);
    expect(error.message).toMatch(/line 1 is neither/);
    expect(error.message).toMatch(/line 3 is neither/);
    expect(error.message).toMatch(/line 4: secret MISSING/);
  });
});

describe('parseSecrets: JSON object', () => {
  it('reads string values', () => {
    expect(parseSecrets('secrets', '{"A": "1", "B_2": "two\\nlines"}', env)).toEqual([
      { name: 'A', value: '1' },
      { name: 'B_2', value: 'two\nlines' },
    ]);
  });

  it.each([
    [
      '{"A": 1}',
      /secret A is a number; secret values must be strings, so put the value in "double quotes"/,
    ],
    ['{"A": {"x": "y"}}', /secret A is an object/],
    ['{"A": null}', /secret A is null/],
    ['{"A": ""}', /secret A is empty/],
    ['{"not valid": "x"}', /a key is not a valid secret name/],
    ['["A", "B"]', /is JSON but not an object\. Write \{"NAME": "value", \.\.\.\}/],
    ['{"A": "1",}', /is not valid JSON at line 1, column 11: JSON allows no comma before "}"/],
    [
      '{\n  "A": "1"\n  "B": "2"\n}',
      /is not valid JSON at line 3, column 3: expected "," or "}" after a value/,
    ],
    ['{"A": "x", "A": "y"}', /is not valid JSON at line 1, column 12: duplicate key\./],
  ])('rejects %j', (value, message) => {
    const error = inputErrorOf(() => parseSecrets('secrets', value, env));
    expect(error.input).toBe('secrets');
    expect(error.message).toMatch(message);
  });
});

describe('secret values never appear in error messages', () => {
  const secret = 'hunter2-Sup3rS3cret';
  it.each([
    `${secret}`,
    `A=${secret}\nB="${secret}`,
    `A="${secret}" trailing`,
    `${secret}=x`,
    `bad-name=${secret}`,
    `A=${secret}\nA=${secret}`,
    `{"A": ${secret}}`,
    `{"A": "${secret}", "A": "${secret}"}`,
    `{"${secret}": "x", "${secret}": "y"}`,
    `{"A": "${secret}\n"}`,
    `{"A": "${secret}" "B": 1}`,
    `{"A": ["${secret}"]}`,
    `{"${secret} key": "v"}`,
  ])('hides the value of %j', (value) => {
    const error = inputErrorOf(() => parseSecrets('secrets', value, env));
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain('Sup3r');
  });

  it.each([
    'ghp_R4nd0mTokenValue1234567890abcdef',
    'DB=1\nghp_R4nd0mTokenValue1234567890abcdef\nghp_R4nd0mTokenValue1234567890abcdef',
    '{"ghp_R4nd0mTokenValue1234567890abcdef": 5}',
  ])('does not name a bare word that looks like a pasted token: %j', (value) => {
    const error = inputErrorOf(() => parseSecrets('secrets', value, {}));
    expect(error.message).not.toContain('R4nd0m');
    expect(error.message).toMatch(/a secret whose name looks like a value \(not shown\)/);
  });

  it('does not echo an environment value either', () => {
    const error = inputErrorOf(() => parseSecrets('secrets', 'FROM_ENV\nFROM_ENV', env));
    expect(error.message).toMatch(/FROM_ENV is defined more than once/);
    expect(error.message).not.toContain('env-value');
  });
});

describe('secretValues', () => {
  it('leaves out values and lines shorter than min-mask-length, and names those secrets', () => {
    const secrets = [
      { name: 'DEBUG', value: '1' },
      { name: 'LOG_LEVEL', value: 'info' },
      { name: 'FLAG', value: 'true' },
      { name: 'PEM', value: 'abc\nlong-line\n}' },
      { name: 'EMPTY', value: '' },
    ];
    expect(secretValues(secrets)).toEqual(['info', 'true', 'abc\nlong-line\n}', 'long-line']);
    expect(unmaskedSecretNames(secrets)).toEqual(['DEBUG']);
    expect(secretValues(secrets, 5)).toEqual(['abc\nlong-line\n}', 'long-line']);
    expect(unmaskedSecretNames(secrets, 5)).toEqual(['DEBUG', 'LOG_LEVEL', 'FLAG']);
  });

  it('warns of each secret too short to mask, by name, never with its value', () => {
    const secrets = [
      { name: 'DEBUG', value: '1' },
      { name: 'REGION', value: 'eu' },
      { name: 'TOKEN', value: 'long-enough' },
      { name: 'EMPTY', value: '' },
    ];
    expect(unmaskedSecretWarnings(secrets, 4)).toEqual([
      "Secret DEBUG is shorter than min-mask-length (4 characters): it is sent, but not masked in the log (masking so short a value would hide it everywhere in the job's log). If it is a real secret, lower min-mask-length.",
      "Secret REGION is shorter than min-mask-length (4 characters): it is sent, but not masked in the log (masking so short a value would hide it everywhere in the job's log). If it is a real secret, lower min-mask-length.",
    ]);
    expect(unmaskedSecretWarnings(secrets, 2)).toHaveLength(1);
    expect(unmaskedSecretWarnings(secrets, 1)).toEqual([]);
  });

  it('lists each value once, and each line of a multi-line value', () => {
    expect(
      secretValues(
        [
          { name: 'A', value: 'one' },
          { name: 'B', value: 'one' },
          { name: 'KEY', value: 'line one\n  line two  \n\n' },
          { name: 'JSON', value: '{\n  "k": "secret-part"\n}' },
          { name: 'E', value: '' },
        ],
        1,
      ),
    ).toEqual([
      'one',
      'line one\n  line two  \n\n',
      'line one',
      'line two',
      '{\n  "k": "secret-part"\n}',
      '"k": "secret-part"',
    ]);
  });
});
