export const id = 164;
export const ids = [164];
export const modules = {

/***/ 8686:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ay: () => (/* binding */ RESOURCE_SPEC_KEYS),
/* harmony export */   NB: () => (/* binding */ ContainerSchema),
/* harmony export */   Pl: () => (/* binding */ ResourceSpecSchema),
/* harmony export */   WK: () => (/* binding */ ContainerEnvSchema),
/* harmony export */   Zz: () => (/* binding */ VolumeMountSchema),
/* harmony export */   gx: () => (/* binding */ VolumeSchema)
/* harmony export */ });
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8816);
/**
 * The resource_spec schema, the largest one, in a module of its own: the `resource-spec` input's
 * parser (loaded by parse/resource-spec-reader.ts only when the input is set) needs it without
 * the rest of schemas.ts, and the request bodies of schemas.ts embed it.
 */

// ---------------------------------------------------------------------------------------------
// resource_spec (2.4) as the production service validates it (known-behaviour.md): strict,
// because it is what users write in the `resource-spec` input. CPU requests 0.1 to 8 cores,
// CPU limits 0.1 to 16; db_cpu, orchestrator_cpu and executor_cpu (and their limits) are
// fractional numbers too (known-behaviour.md corrects the spec's table there); the cache
// workload has cpu and memory requests and limits. Every other quantity is an integer.
// ---------------------------------------------------------------------------------------------
const int = zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig().int().nonnegative();
const num = zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig().nonnegative();
/** A CPU request, in cores. */
const cpu = zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig().min(0.1).max(8);
/** A CPU limit, in cores. */
const cpuLimit = zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig().min(0.1).max(16);
const stringMap = zod__WEBPACK_IMPORTED_MODULE_0__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP());
const freeObject = zod__WEBPACK_IMPORTED_MODULE_0__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_0__/* .unknown */ .L5J());
const VolumeMountSchema = zod__WEBPACK_IMPORTED_MODULE_0__/* .strictObject */ .rej({
    name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(),
    mountPath: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(),
    subPath: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
    mountPropagation: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
    readOnly: zod__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY().optional(),
    subPathExpr: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
});
const VolumeSchema = zod__WEBPACK_IMPORTED_MODULE_0__/* .strictObject */ .rej({
    name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(),
    configMap: freeObject.optional(),
    secret: freeObject.optional(),
    emptyDir: freeObject.optional(),
    persistentVolumeClaim: freeObject.optional(),
    nfs: freeObject.optional(),
    projected: freeObject.optional(),
    downwardAPI: freeObject.optional(),
    csi: freeObject.optional(),
});
const ContainerEnvSchema = zod__WEBPACK_IMPORTED_MODULE_0__/* .strictObject */ .rej({
    name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(),
    value: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
    valueFrom: freeObject.optional(),
});
const ContainerSchema = zod__WEBPACK_IMPORTED_MODULE_0__/* .strictObject */ .rej({
    name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(),
    image: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(),
    imagePullPolicy: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
    workingDir: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
    restartPolicy: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
    command: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()).optional(),
    args: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()).optional(),
    env: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(ContainerEnvSchema).optional(),
    envFrom: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(freeObject).optional(),
    resources: zod__WEBPACK_IMPORTED_MODULE_0__/* .strictObject */ .rej({ limits: freeObject.optional(), requests: freeObject.optional() })
        .optional(),
    volumeMounts: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(VolumeMountSchema).optional(),
    securityContext: freeObject.optional(),
});
const ResourceSpecSchema = zod__WEBPACK_IMPORTED_MODULE_0__/* .strictObject */ .rej({
    // Main workload
    min_scale: int.optional(),
    max_scale: int.optional(),
    cpu: cpu.optional(),
    cpu_limit: cpuLimit.optional(),
    memory_mb: int.optional(),
    memory_limit_mb: int.optional(),
    // Queue workload
    queue_min_scale: int.optional(),
    queue_max_scale: int.optional(),
    queue_cpu: cpu.optional(),
    queue_cpu_limit: cpuLimit.optional(),
    queue_memory_mb: int.optional(),
    queue_memory_limit_mb: int.optional(),
    // Orchestrator (accepted; the service documents these as "do not use")
    orchestrator_cpu: num.optional(),
    orchestrator_cpu_limit: num.optional(),
    orchestrator_memory_mb: int.optional(),
    orchestrator_memory_limit_mb: int.optional(),
    orchestrator_min_scale: int.optional(),
    orchestrator_max_scale: int.optional(),
    // Executor (accepted; the service documents these as "do not use")
    executor_cpu: num.optional(),
    executor_cpu_limit: num.optional(),
    executor_memory_mb: int.optional(),
    executor_memory_limit_mb: int.optional(),
    // Cache
    cache_cpu: cpu.optional(),
    cache_cpu_limit: cpuLimit.optional(),
    cache_memory_mb: int.optional(),
    cache_memory_limit_mb: int.optional(),
    // Database
    db_cpu: num.optional(),
    db_cpu_limit: num.optional(),
    db_memory_mb: int.optional(),
    db_memory_limit_mb: int.optional(),
    db_storage_gi: int.optional(),
    db_max_connections: int.optional(),
    // Metadata
    labels: stringMap.optional(),
    annotations: stringMap.optional(),
    service_account_name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
    image_pull_secrets: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_0__/* .strictObject */ .rej({ name: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP() })).optional(),
    volumes: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(VolumeSchema).optional(),
    volume_mounts: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(VolumeMountSchema).optional(),
    init_containers: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(ContainerSchema).optional(),
    sidecars: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(ContainerSchema).optional(),
});
/** Every top-level key of resource_spec, for "did you mean" suggestions. */
const RESOURCE_SPEC_KEYS = Object.keys(ResourceSpecSchema.shape);


/***/ }),

/***/ 8164:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   AuthenticateRequestSchema: () => (/* binding */ AuthenticateRequestSchema),
/* harmony export */   AuthenticateResponseSchema: () => (/* binding */ AuthenticateResponseSchema),
/* harmony export */   ContainerEnvSchema: () => (/* reexport safe */ _resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__.WK),
/* harmony export */   ContainerSchema: () => (/* reexport safe */ _resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__.NB),
/* harmony export */   CreateDeploymentRequestSchema: () => (/* binding */ CreateDeploymentRequestSchema),
/* harmony export */   DEPLOYMENT_STATUSES: () => (/* reexport safe */ _enums_js__WEBPACK_IMPORTED_MODULE_1__.PB),
/* harmony export */   DEPLOYMENT_TYPES: () => (/* reexport safe */ _enums_js__WEBPACK_IMPORTED_MODULE_1__._o),
/* harmony export */   DeploymentListSchema: () => (/* binding */ DeploymentListSchema),
/* harmony export */   DeploymentSchema: () => (/* binding */ DeploymentSchema),
/* harmony export */   ErrorDetailSchema: () => (/* binding */ ErrorDetailSchema),
/* harmony export */   HTTPValidationErrorSchema: () => (/* binding */ HTTPValidationErrorSchema),
/* harmony export */   ListDeploymentsQuerySchema: () => (/* binding */ ListDeploymentsQuerySchema),
/* harmony export */   ListenerComputeConfigSchema: () => (/* binding */ ListenerComputeConfigSchema),
/* harmony export */   ListenerConfigSchema: () => (/* binding */ ListenerConfigSchema),
/* harmony export */   ListenerSchema: () => (/* binding */ ListenerSchema),
/* harmony export */   LogLineSchema: () => (/* binding */ LogLineSchema),
/* harmony export */   LogPageSchema: () => (/* binding */ LogPageSchema),
/* harmony export */   PatchDeploymentRequestSchema: () => (/* binding */ PatchDeploymentRequestSchema),
/* harmony export */   RESOURCE_SPEC_KEYS: () => (/* reexport safe */ _resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__.Ay),
/* harmony export */   REVISION_STATUSES: () => (/* binding */ REVISION_STATUSES),
/* harmony export */   ReceivedSecretSchema: () => (/* binding */ ReceivedSecretSchema),
/* harmony export */   ReceivedSourceConfigSchema: () => (/* binding */ ReceivedSourceConfigSchema),
/* harmony export */   ReceivedSourceRevisionConfigSchema: () => (/* binding */ ReceivedSourceRevisionConfigSchema),
/* harmony export */   ResourceSpecSchema: () => (/* reexport safe */ _resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__.Pl),
/* harmony export */   RevisionListSchema: () => (/* binding */ RevisionListSchema),
/* harmony export */   RevisionSchema: () => (/* binding */ RevisionSchema),
/* harmony export */   RunMessageSchema: () => (/* binding */ RunMessageSchema),
/* harmony export */   RunStreamRequestSchema: () => (/* binding */ RunStreamRequestSchema),
/* harmony export */   SOURCE_KINDS: () => (/* reexport safe */ _enums_js__WEBPACK_IMPORTED_MODULE_1__.s1),
/* harmony export */   SecretSchema: () => (/* binding */ SecretSchema),
/* harmony export */   SourceConfigSchema: () => (/* binding */ SourceConfigSchema),
/* harmony export */   SourceRevisionConfigSchema: () => (/* binding */ SourceRevisionConfigSchema),
/* harmony export */   ValidationErrorSchema: () => (/* binding */ ValidationErrorSchema),
/* harmony export */   VolumeMountSchema: () => (/* reexport safe */ _resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__.Zz),
/* harmony export */   VolumeSchema: () => (/* reexport safe */ _resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__.gx)
/* harmony export */ });
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8816);
/* harmony import */ var _enums_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4986);
/* harmony import */ var _resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8686);
/**
 * zod schemas for every resource of the control-plane API (shared/spec/control-plane-api.md,
 * with the gaps filled by known-behaviour.md).
 *
 * Two rules shape this file:
 * - What we SEND is strict: an unknown key is a mistake on our side (or the user's) and must be
 *   caught before any request.
 * - What we RECEIVE is lenient: unknown fields are kept, unknown enum values are kept as plain
 *   strings, and nearly every field may be missing or null, so that a newer server never breaks
 *   the action.
 *
 * The entry never imports this module directly: the client loads it on first use (see
 * load-schemas.ts), the enumerations the inputs are checked against live
 * in enums.ts, and the resource_spec schema in resource-spec-schema.ts (both re-exported here).
 */





// ---------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------
const REVISION_STATUSES = [
    'CREATING',
    'QUEUED',
    'AWAITING_BUILD',
    'BUILDING',
    'AWAITING_DEPLOY',
    'DEPLOYING',
    'CREATE_FAILED',
    'BUILD_FAILED',
    'DEPLOY_FAILED',
    'DEPLOYED',
    'SKIPPED',
    'INTERRUPTED',
    'UNKNOWN',
];
const openEnum = () => zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP();
// ---------------------------------------------------------------------------------------------
// Request bodies (strict)
// ---------------------------------------------------------------------------------------------
const SecretSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .strictObject */ .rej({ name: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().min(1), value: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP() });
/** "string, UUID" (2.2): the 8-4-4-4-12 hexadecimal form, any version. */
const uuid = zod__WEBPACK_IMPORTED_MODULE_2__/* .guid */ .OsD();
const ListenerConfigSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .strictObject */ .rej({ k8s_namespace: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP() });
const SourceConfigSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .strictObject */ .rej({
    deployment_type: zod__WEBPACK_IMPORTED_MODULE_2__/* ["enum"] */ .k5n(_enums_js__WEBPACK_IMPORTED_MODULE_1__/* .DEPLOYMENT_TYPES */ ._o).optional(),
    integration_id: uuid.optional(),
    repo_url: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
    build_on_push: zod__WEBPACK_IMPORTED_MODULE_2__/* .boolean */ .zMY().optional(),
    custom_url: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
    resource_spec: _resource_spec_schema_js__WEBPACK_IMPORTED_MODULE_0__/* .ResourceSpecSchema */ .Pl.optional(),
    listener_id: uuid.optional(),
    listener_config: ListenerConfigSchema.optional(),
    install_command: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
    build_command: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
});
/** source_revision_config as sent: repo_commit_sha is server-side only. */
const SourceRevisionConfigSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .strictObject */ .rej({
    repo_ref: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
    graph_config_path: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
    image_uri: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
});
const CreateDeploymentRequestSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .strictObject */ .rej({
    name: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(),
    source: zod__WEBPACK_IMPORTED_MODULE_2__/* ["enum"] */ .k5n(_enums_js__WEBPACK_IMPORTED_MODULE_1__/* .SOURCE_KINDS */ .s1),
    source_config: SourceConfigSchema,
    source_revision_config: SourceRevisionConfigSchema,
    secrets: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(SecretSchema),
});
const PatchDeploymentRequestSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .strictObject */ .rej({
    source_config: SourceConfigSchema.optional(),
    source_revision_config: SourceRevisionConfigSchema.optional(),
    secrets: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(SecretSchema).optional(),
});
/** provider and scopes are required (known-behaviour.md). */
const AuthenticateRequestSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .strictObject */ .rej({
    user_id: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
    provider: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(),
    scopes: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()),
    svc_user_id: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
    agent_id: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
    use_agent_builder_public_oauth: zod__WEBPACK_IMPORTED_MODULE_2__/* .boolean */ .zMY().optional(),
});
const RunMessageSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .strictObject */ .rej({ role: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(), content: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP() });
const RunStreamRequestSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .strictObject */ .rej({
    assistant_id: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(),
    input: zod__WEBPACK_IMPORTED_MODULE_2__/* .strictObject */ .rej({ messages: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(RunMessageSchema) }),
    stream_mode: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(),
});
// ---------------------------------------------------------------------------------------------
// Response bodies (lenient)
// ---------------------------------------------------------------------------------------------
const receivedString = zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().nullish();
const ReceivedSourceConfigSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
    deployment_type: openEnum().nullish(),
    integration_id: receivedString,
    repo_url: receivedString,
    build_on_push: zod__WEBPACK_IMPORTED_MODULE_2__/* .boolean */ .zMY().nullish(),
    custom_url: receivedString,
    resource_spec: zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({}).nullish(),
    listener_id: receivedString,
    listener_config: zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({ k8s_namespace: receivedString }).nullish(),
    install_command: receivedString,
    build_command: receivedString,
});
const ReceivedSourceRevisionConfigSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
    repo_ref: receivedString,
    graph_config_path: receivedString,
    image_uri: receivedString,
    repo_commit_sha: receivedString,
});
const ReceivedSecretSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({ name: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(), value: receivedString });
const DeploymentSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
    id: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(),
    name: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(),
    source: openEnum().nullish(),
    source_config: ReceivedSourceConfigSchema.nullish(),
    source_revision_config: ReceivedSourceRevisionConfigSchema.nullish(),
    secrets: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(ReceivedSecretSchema).nullish(),
    created_at: receivedString,
    updated_at: receivedString,
    status: openEnum().nullish(),
    latest_revision_id: receivedString,
    active_revision_id: receivedString,
    image_version: receivedString,
});
const RevisionSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
    id: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(),
    status: openEnum(),
    status_message: receivedString,
    source: openEnum().nullish(),
    created_at: receivedString,
    updated_at: receivedString,
    source_config: ReceivedSourceConfigSchema.nullish(),
    source_revision_config: ReceivedSourceRevisionConfigSchema.nullish(),
});
const DeploymentListSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
    resources: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(DeploymentSchema),
    offset: zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig().int().nullish(),
});
const ListenerComputeConfigSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
    k8s_namespaces: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()).nullish(),
});
const ListenerSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
    id: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(),
    version: receivedString,
    compute_type: openEnum().nullish(),
    compute_id: receivedString,
    compute_config: ListenerComputeConfigSchema.nullish(),
    created_at: receivedString,
    updated_at: receivedString,
});
const AuthenticateResponseSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
    status: openEnum().nullish(),
    url: receivedString,
    auth_id: receivedString,
    token: receivedString,
});
/**
 * GET /v2/deployments/{id}/revisions: not in the spec. Servers that offer it answer a page like
 * the deployment list; a bare array is accepted too, as the whole listing (`unpaginated`).
 */
const RevisionListSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .union */ .KCZ([
    zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
        resources: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(RevisionSchema),
        offset: zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig().int().nullish(),
    }),
    zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(RevisionSchema)
        .transform((resources) => ({ resources, offset: undefined, unpaginated: true })),
]);
/** One line of a build or deploy log. */
const LogLineSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
    id: zod__WEBPACK_IMPORTED_MODULE_2__/* .union */ .KCZ([zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig()]).nullish(),
    timestamp: receivedString,
    level: receivedString,
    message: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().nullish(),
});
/** A page of a log: `next_offset` is opaque, passed back as `offset` to read on. */
const LogPageSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
    logs: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(LogLineSchema),
    next_offset: zod__WEBPACK_IMPORTED_MODULE_2__/* .unknown */ .L5J().optional(),
});
/** ListDeploymentsQuery as sent: bounds from the spec (4.4, section 8). */
const ListDeploymentsQuerySchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .strictObject */ .rej({
    limit: zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig().int().min(1).max(100).optional(),
    offset: zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig().int().nonnegative().optional(),
    name_contains: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
    // A filter by a status the server does not know is answered with 422 ("status value", 4.4).
    status: zod__WEBPACK_IMPORTED_MODULE_2__/* ["enum"] */ .k5n(_enums_js__WEBPACK_IMPORTED_MODULE_1__/* .DEPLOYMENT_STATUSES */ .PB).optional(),
    remote_reconciled: zod__WEBPACK_IMPORTED_MODULE_2__/* .boolean */ .zMY().optional(),
    tag_value_ids: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()).optional(),
    image_version: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().optional(),
    deployment_type: zod__WEBPACK_IMPORTED_MODULE_2__/* ["enum"] */ .k5n(_enums_js__WEBPACK_IMPORTED_MODULE_1__/* .DEPLOYMENT_TYPES */ ._o).optional(),
    deployment_ids: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()).optional(),
});
const ValidationErrorSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({
    loc: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_2__/* .union */ .KCZ([zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig()])),
    msg: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(),
    type: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP(),
});
const HTTPValidationErrorSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({ detail: zod__WEBPACK_IMPORTED_MODULE_2__/* .array */ .YOg(ValidationErrorSchema) });
const ErrorDetailSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .looseObject */ ._H3({ detail: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP() });


/***/ })

};
