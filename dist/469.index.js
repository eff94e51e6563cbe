export const id = 469;
export const ids = [469];
export const modules = {

/***/ 469:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   RESOURCE_SPEC_BOUNDS: () => (/* binding */ RESOURCE_SPEC_BOUNDS),
/* harmony export */   parseResourceSpec: () => (/* binding */ parseResourceSpec)
/* harmony export */ });
/* harmony import */ var _api_resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8686);
/* harmony import */ var _api_schema_issues_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(7218);
/* harmony import */ var _input_error_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5794);
/* harmony import */ var _structured_text_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1024);




/**
 * Every `X_min_scale ≤ X_max_scale`, `X_cpu ≤ X_cpu_limit` and `X_memory_mb ≤ X_memory_limit_mb`
 * pair, derived from the schema's keys so that a group added to the schema is checked too.
 */
const RESOURCE_SPEC_BOUNDS = _api_resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__/* .RESOURCE_SPEC_KEYS */ .Ay.flatMap((upper) => {
    const lower = lowerBoundOf(upper);
    return lower !== undefined && _api_resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__/* .RESOURCE_SPEC_KEYS */ .Ay.includes(lower)
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
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(input, `Input '${input}' is empty. Give a YAML or JSON mapping of resource fields, like "min_scale: 1".`);
    }
    const document = (0,_structured_text_js__WEBPACK_IMPORTED_MODULE_2__/* .parseJsonOrYaml */ .U)(input, value);
    if (document === null || typeof document !== 'object' || Array.isArray(document)) {
        throw new _input_error_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(input, `Input '${input}' must be a mapping of resource fields, like "min_scale: 1" (YAML) or {"min_scale": 1} (JSON), but it is ${(0,_api_schema_issues_js__WEBPACK_IMPORTED_MODULE_3__/* .describeValue */ .bp)(document)}.`);
    }
    const result = _api_resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__/* .ResourceSpecSchema */ .Pl.safeParse(document);
    const problems = [
        ...prototypeKeyProblems(input, document, []),
        ...(result.success
            ? []
            : (0,_api_schema_issues_js__WEBPACK_IMPORTED_MODULE_3__/* .describeIssues */ .wF)(input, _api_resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__/* .ResourceSpecSchema */ .Pl, document, result.error.issues)),
        ...boundProblems(input, document),
    ];
    if (!result.success || problems.length > 0) {
        throw _input_error_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz.withProblems(input, 'is not a valid resource spec', problems);
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
            return [`${(0,_api_schema_issues_js__WEBPACK_IMPORTED_MODULE_3__/* .formatPath */ .jV)(input, childPath)}: this key is not allowed; rename it.`];
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
            `${(0,_api_schema_issues_js__WEBPACK_IMPORTED_MODULE_3__/* .formatPath */ .jV)(input, [lower])}: ${low} is more than ${upper} (${high}); ${lower} must not exceed ${upper}.`,
        ];
    });
}


/***/ })

};
