export const id = 779;
export const ids = [779];
export const modules = {

/***/ 779:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  RESOURCE_SPEC_BOUNDS: () => (/* binding */ RESOURCE_SPEC_BOUNDS),
  parseResourceSpec: () => (/* binding */ parseResourceSpec)
});

// EXTERNAL MODULE: ./src/api/resource-spec-schema.ts
var resource_spec_schema = __webpack_require__(8686);
// EXTERNAL MODULE: ./src/settings/input-error.ts
var input_error = __webpack_require__(5794);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 17 modules
var schemas = __webpack_require__(8816);
// EXTERNAL MODULE: ./src/settings/quote.ts
var quote = __webpack_require__(9786);
// EXTERNAL MODULE: ./src/settings/suggest.ts
var suggest = __webpack_require__(8843);
;// CONCATENATED MODULE: ./src/settings/schema-issues.ts



/** How many known fields an "unknown field" message may list before it just says so. */
const MAX_LISTED_FIELDS = 12;
/**
 * One line per zod issue, for a value the user wrote: the path in the input
 * (`resource-spec.init_containers[0].image`), what was expected, what was found, and how to
 * fix it, with "did you mean" for a misspelt field at any level where the schema is strict.
 */
function describeIssues(input, schema, root, issues) {
    return issues.flatMap((issue) => describeIssue(input, schema, root, issue));
}
function describeIssue(input, schema, root, issue) {
    const where = formatPath(input, issue.path);
    const value = valueAt(root, issue.path);
    switch (issue.code) {
        case 'unrecognized_keys': {
            const known = knownKeysAt(schema, issue.path);
            return issue.keys.map((key) => `${formatPath(input, [...issue.path, key])}: unknown field.${unknownKeyFix(key, known)}`);
        }
        case 'invalid_type': {
            if (value === undefined)
                return [`${where}: missing; this field is required.`];
            const expected = expectedAt(schema, issue.path, issue.expected);
            return [
                `${where}: expected ${expectedName(expected)}, got ${describeValue(value)}.${typeHint(expected, value)}`,
            ];
        }
        case 'too_small':
            return [`${where}: must be at least ${String(issue.minimum)}, got ${describeValue(value)}.`];
        case 'too_big':
            return [`${where}: must be at most ${String(issue.maximum)}, got ${describeValue(value)}.`];
        default:
            return [`${where}: ${issue.message}.`];
    }
}
function unknownKeyFix(key, known) {
    const suggestion = (0,suggest/* didYouMean */.au)(key, known);
    if (suggestion !== '')
        return suggestion;
    if (known.length > 0 && known.length <= MAX_LISTED_FIELDS) {
        return ` The fields here are: ${known.join(', ')}.`;
    }
    return ' Check its spelling or remove it.';
}
/** `input.a[0].b`, with keys that are not plain words written as `["app.kubernetes.io/name"]`. */
function formatPath(input, path) {
    return path.reduce((text, key) => {
        if (typeof key === 'number')
            return `${text}[${key}]`;
        const name = String(key);
        return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
            ? `${text}.${name}`
            : `${text}[${JSON.stringify(name)}]`;
    }, input);
}
/** How a found value reads in a message ("got 0.5", "got the text "2""). */
function describeValue(value) {
    if (value === null || value === undefined)
        return 'an empty value';
    if (typeof value === 'string')
        return `the text ${(0,quote/* quote */.h)(value)}`;
    if (Array.isArray(value))
        return 'a list';
    if (typeof value === 'object')
        return 'a mapping';
    return String(value);
}
function expectedName(expected) {
    const names = {
        int: 'an integer',
        number: 'a number',
        string: 'text',
        boolean: 'true or false',
        array: 'a list',
        object: 'a mapping',
        record: 'a mapping',
    };
    return names[expected] ?? expected;
}
function typeHint(expected, value) {
    const numeric = expected === 'int' || expected === 'number';
    if (numeric &&
        typeof value === 'string' &&
        value.trim() !== '' &&
        Number.isFinite(Number(value))) {
        return ' Write the number without quotes.';
    }
    if (expected === 'int' && typeof value === 'number' && Number.isFinite(value)) {
        return ' Use a whole number.';
    }
    if (expected === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
        return ' Put the value in quotes.';
    }
    if (value === null)
        return ' Give a value or remove the field.';
    return '';
}
function valueAt(root, path) {
    let current = root;
    for (const key of path) {
        if (current === null || typeof current !== 'object')
            return undefined;
        if (!Object.hasOwn(current, key))
            return undefined;
        current = current[key];
    }
    return current;
}
/** The field names of the strict object the path leads to, or [] when it is not one. */
function knownKeysAt(schema, path) {
    const target = schemaAt(schema, path);
    return target instanceof schemas/* ZodObject */.bvH ? Object.keys(target.shape) : [];
}
/** The schema that validates the value at `path` (optional wrappers removed). */
function schemaAt(schema, path) {
    let current = unwrap(schema);
    for (const key of path) {
        if (current instanceof schemas/* ZodObject */.bvH) {
            const shape = current.shape;
            current = Object.hasOwn(shape, String(key)) ? shape[String(key)] : undefined;
        }
        else if (current instanceof schemas/* ZodArray */.naA) {
            current = current.element;
        }
        else if (current instanceof schemas/* ZodRecord */.b8S) {
            current = current.valueType;
        }
        else {
            return undefined;
        }
        if (current === undefined)
            return undefined;
        current = unwrap(current);
    }
    return current;
}
/**
 * zod names the expected type `number` when a whole-number field gets a string or null;
 * the schema knows it is an integer, and the message should say so.
 */
function expectedAt(schema, path, expected) {
    const target = schemaAt(schema, path);
    const isInteger = target instanceof schemas/* ZodNumber */.rSt && (target.format?.includes('int') ?? false);
    return expected === 'number' && isInteger ? 'int' : expected;
}
function unwrap(schema) {
    let current = schema;
    while (current instanceof schemas/* ZodOptional */.IiU || current instanceof schemas/* ZodNullable */.l1C) {
        current = current.unwrap();
    }
    return current;
}

// EXTERNAL MODULE: ./src/settings/structured-text.ts
var structured_text = __webpack_require__(1024);
;// CONCATENATED MODULE: ./src/settings/resource-spec.ts




/**
 * Every `X_min_scale ≤ X_max_scale`, `X_cpu ≤ X_cpu_limit` and `X_memory_mb ≤ X_memory_limit_mb`
 * pair, derived from the schema's keys so that a group added to the schema is checked too.
 */
const RESOURCE_SPEC_BOUNDS = resource_spec_schema/* RESOURCE_SPEC_KEYS */.Ay.flatMap((upper) => {
    const lower = lowerBoundOf(upper);
    return lower !== undefined && resource_spec_schema/* RESOURCE_SPEC_KEYS */.Ay.includes(lower)
        ? [{ lower: lower, upper }]
        : [];
});
function lowerBoundOf(key) {
    if (key.endsWith('max_scale'))
        return key.replace(/max_scale$/, 'min_scale');
    if (key.endsWith('memory_limit_mb'))
        return key.replace(/memory_limit_mb$/, 'memory_mb');
    if (key.endsWith('_limit'))
        return key.replace(/_limit$/, '');
    return undefined;
}
/**
 * The `resource-spec` input (JSON or YAML) as a resource_spec for the API. Every problem of the
 * spec (unknown or misspelt fields, wrong types, a minimum above its maximum) is reported in one
 * error, so that one run shows all of them.
 */
function parseResourceSpec(input, value) {
    if (value.trim() === '') {
        throw new input_error/* InputError */.dz(input, `Input '${input}' is empty. Give a YAML or JSON mapping of resource fields, like "min_scale: 1".`);
    }
    const document = (0,structured_text/* parseJsonOrYaml */.U)(input, value);
    if (document === null || typeof document !== 'object' || Array.isArray(document)) {
        throw new input_error/* InputError */.dz(input, `Input '${input}' must be a mapping of resource fields, like "min_scale: 1" (YAML) or {"min_scale": 1} (JSON), but it is ${describeValue(document)}.`);
    }
    const result = resource_spec_schema/* ResourceSpecSchema */.Pl.safeParse(document);
    const problems = [
        ...prototypeKeyProblems(input, document, []),
        ...(result.success
            ? []
            : describeIssues(input, resource_spec_schema/* ResourceSpecSchema */.Pl, document, result.error.issues)),
        ...boundProblems(input, document),
    ];
    if (!result.success || problems.length > 0) {
        throw input_error/* InputError */.dz.withProblems(input, 'is not a valid resource spec', problems);
    }
    return result.data;
}
/**
 * `__proto__` as a key (legal in YAML and JSON) would be dropped without a word when zod copies
 * a free-form mapping (it sets the copy's prototype instead of a field), so the API would get
 * something other than what the user wrote. No Kubernetes name may be `__proto__` anyway.
 */
function prototypeKeyProblems(input, value, path) {
    if (value === null || typeof value !== 'object')
        return [];
    return Object.entries(value).flatMap(([key, child]) => {
        const childPath = [...path, Array.isArray(value) ? Number(key) : key];
        if (key === '__proto__')
            return [`${formatPath(input, childPath)}: this key is not allowed; rename it.`];
        return prototypeKeyProblems(input, child, childPath);
    });
}
function boundProblems(input, spec) {
    return RESOURCE_SPEC_BOUNDS.flatMap(({ lower, upper }) => {
        const low = Object.hasOwn(spec, lower) ? spec[lower] : undefined;
        const high = Object.hasOwn(spec, upper) ? spec[upper] : undefined;
        if (typeof low !== 'number' || typeof high !== 'number' || !(low > high))
            return [];
        return [
            `${formatPath(input, [lower])}: ${low} is more than ${upper} (${high}); ${lower} must not exceed ${upper}.`,
        ];
    });
}


/***/ })

};
