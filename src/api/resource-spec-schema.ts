/**
 * The resource_spec schema, the largest one, in a module of its own: the `resource-spec` input's
 * parser (settings/resource-spec.ts) checks the input against it, and the request bodies of
 * schemas.ts embed it.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// resource_spec (2.4) as the production service validates it (known-behaviour.md): strict,
// because it is what users write in the `resource-spec` input. CPU requests 0.1 to 8 cores,
// CPU limits 0.1 to 16; db_cpu, orchestrator_cpu and executor_cpu (and their limits) are
// fractional numbers too (known-behaviour.md corrects the spec's table there); the cache
// workload has cpu and memory requests and limits. Every other quantity is an integer.
// ---------------------------------------------------------------------------------------------

const int = z.number().int().nonnegative();
const num = z.number().nonnegative();
/** A CPU request, in cores. */
const cpu = z.number().min(0.1).max(8);
/** A CPU limit, in cores. */
const cpuLimit = z.number().min(0.1).max(16);
const stringMap = z.record(z.string(), z.string());
const freeObject = z.record(z.string(), z.unknown());

export const VolumeMountSchema = z.strictObject({
  name: z.string(),
  mountPath: z.string(),
  subPath: z.string().optional(),
  mountPropagation: z.string().optional(),
  readOnly: z.boolean().optional(),
  subPathExpr: z.string().optional(),
});

export const VolumeSchema = z.strictObject({
  name: z.string(),
  configMap: freeObject.optional(),
  secret: freeObject.optional(),
  emptyDir: freeObject.optional(),
  persistentVolumeClaim: freeObject.optional(),
  nfs: freeObject.optional(),
  projected: freeObject.optional(),
  downwardAPI: freeObject.optional(),
  csi: freeObject.optional(),
});

export const ContainerEnvSchema = z.strictObject({
  name: z.string(),
  value: z.string().optional(),
  valueFrom: freeObject.optional(),
});

export const ContainerSchema = z.strictObject({
  name: z.string(),
  image: z.string(),
  imagePullPolicy: z.string().optional(),
  workingDir: z.string().optional(),
  restartPolicy: z.string().optional(),
  command: z.array(z.string()).optional(),
  args: z.array(z.string()).optional(),
  env: z.array(ContainerEnvSchema).optional(),
  envFrom: z.array(freeObject).optional(),
  resources: z
    .strictObject({ limits: freeObject.optional(), requests: freeObject.optional() })
    .optional(),
  volumeMounts: z.array(VolumeMountSchema).optional(),
  securityContext: freeObject.optional(),
});

export const ResourceSpecSchema = z.strictObject({
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
  service_account_name: z.string().optional(),
  image_pull_secrets: z.array(z.strictObject({ name: z.string() })).optional(),
  volumes: z.array(VolumeSchema).optional(),
  volume_mounts: z.array(VolumeMountSchema).optional(),
  init_containers: z.array(ContainerSchema).optional(),
  sidecars: z.array(ContainerSchema).optional(),
});
export type ResourceSpec = z.infer<typeof ResourceSpecSchema>;
/** Every top-level key of resource_spec, for "did you mean" suggestions. */
export const RESOURCE_SPEC_KEYS = Object.keys(ResourceSpecSchema.shape) as (keyof ResourceSpec)[];
