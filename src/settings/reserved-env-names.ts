/**
 * Environment variables the platform sets itself, so a deployment may not set them: the
 * official CLI's RESERVED_ENV_VARS (langgraph-cli, libs/cli/langgraph_cli/deploy.py, commit
 * be999ad38a8443a2a64d468e33c1228ca5aede4f, "LANGCHAIN_RESERVED_ENV_VARS from host-backend" plus
 * ALLOWED_SELF_HOSTED_ENV_VARS, which are refused for cloud deployments). `langgraph deploy`
 * drops them with a note; here they are an error, because a value the user wrote would silently
 * not apply. One list for both places a deployment sets them: the graph configuration's `env`
 * (graph-config.ts) and the `secrets` input (source-inputs.ts), which the server refuses otherwise.
 */
export const RESERVED_ENV_NAMES: ReadonlySet<string> = new Set([
  'LANGCHAIN_TRACING_V2',
  'LANGSMITH_TRACING_V2',
  'LANGCHAIN_ENDPOINT',
  'LANGCHAIN_PROJECT',
  'LANGSMITH_PROJECT',
  'LANGSMITH_LANGGRAPH_GIT_REPO',
  'LANGGRAPH_GIT_REPO_PATH',
  'LANGCHAIN_API_KEY',
  'LANGSMITH_CONTROL_PLANE_API_KEY',
  'POSTGRES_URI',
  'POSTGRES_PASSWORD',
  'DATABASE_URI',
  'LANGSMITH_LANGGRAPH_GIT_REF',
  'LANGSMITH_LANGGRAPH_GIT_REF_SHA',
  'LANGGRAPH_AUTH_TYPE',
  'LANGSMITH_AUTH_ENDPOINT',
  'LANGSMITH_TENANT_ID',
  'LANGSMITH_AUTH_VERIFY_TENANT_ID',
  'LANGSMITH_HOST_PROJECT_ID',
  'LANGSMITH_HOST_PROJECT_NAME',
  'LANGSMITH_HOST_REVISION_ID',
  'LOG_JSON',
  'LOG_DICT_TRACEBACKS',
  'REDIS_URI',
  'LANGCHAIN_CALLBACKS_BACKGROUND',
  'DD_TRACE_PSYCOPG_ENABLED',
  'DD_TRACE_REDIS_ENABLED',
  'LANGSMITH_DEPLOYMENT_NAME',
  'LANGGRAPH_CLOUD_LICENSE_KEY',
  'LANGSMITH_API_KEY',
  'LANGSMITH_ENDPOINT',
  'POSTGRES_URI_CUSTOM',
  'REDIS_URI_CUSTOM',
  'PATH',
  'PORT',
  'MOUNT_PREFIX',
  'LSD_ENV',
  'LSD_DD_API_KEY',
  'LSD_DD_ENDPOINT',
  'LSD_DEPLOYMENT_TYPE',
]);
