/** Finding the deployment a command acts on: by `deployment-id`, or by exact `name`. */
import { ApiError } from '../../api/errors.ts';
import type { Deployment } from '../../api/schemas.ts';
import { InputError } from '../../settings/input-error.ts';
import type { Settings } from '../../settings/inputs.ts';
import type { CommandContext } from './command-context.ts';

/** What finding the target reads of a command's context. */
type TargetLookup = Pick<CommandContext, 'client' | 'signal' | 'log'> & {
  settings: Pick<Settings, 'target' | 'api'>;
};

/** `deployment-id` names no deployment: to delete, that means "already gone". */
export class UnknownDeploymentIdError extends InputError {}

/** The addressed deployment, or undefined when none has that name. An unknown id is an error. */
export async function findDeployment(ctx: TargetLookup): Promise<Deployment | undefined> {
  const { client, settings, log } = ctx;
  const { deploymentId, name } = settings.target;
  if (deploymentId !== undefined) {
    const found = await getById(ctx, deploymentId);
    if (name !== undefined && found.name !== name) {
      throw new InputError(
        'deployment-id',
        `Input 'deployment-id' ${deploymentId} is deployment '${found.name}', but input 'name' is '${name}'. Remove one of them, or make them agree.`,
      );
    }
    return found;
  }
  if (name === undefined) return undefined;
  const all = await client.findAllByName(name, { signal: ctx.signal });
  if (all.length > 1) throw duplicateNameError(name, all);
  const found = all[0];
  log.info(found ? `Found deployment ${name} (${found.id}).` : `No deployment is named ${name}.`);
  return found;
}

const MAX_IDS_LISTED = 10;

/**
 * Two deployments with one name (a server without the unique-name rule, or two creates that
 * raced): acting on the first one listed could patch, redeploy or delete the wrong one.
 */
function duplicateNameError(name: string, deployments: readonly Deployment[]): InputError {
  const ids = deployments.map((deployment) => deployment.id);
  // Bounded: a broken server could list thousands.
  const shown = ids.slice(0, MAX_IDS_LISTED);
  const more = ids.length - shown.length;
  const listed =
    more > 0
      ? `${shown.join(', ')} and ${more} more`
      : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  return new InputError(
    'deployment-id',
    `Input 'name' is '${name}', and ${ids.length} deployments have that name: ${listed}. Nothing was changed. Set 'deployment-id' to the one this job is for (and delete the other in the control plane).`,
  );
}

/** Like findDeployment, for commands that cannot go on without it. */
export async function requireDeployment(ctx: TargetLookup): Promise<Deployment> {
  const found = await findDeployment(ctx);
  if (found) return found;
  throw new InputError(
    'name',
    `Input 'name' is '${ctx.settings.target.name}', and no deployment has that name${ctx.settings.api.tenantId ? ` in workspace ${ctx.settings.api.tenantId}` : ''}. Check the name (and 'tenant-id'), or create it with 'command: deploy'.`,
  );
}

async function getById(
  ctx: Pick<CommandContext, 'client' | 'signal'>,
  deploymentId: string,
): Promise<Deployment> {
  try {
    return await ctx.client.getDeployment(deploymentId, { signal: ctx.signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new UnknownDeploymentIdError(
        'deployment-id',
        `Input 'deployment-id' is ${deploymentId}, and no deployment has that id. Check the id, or leave 'deployment-id' empty and set 'name' to address the deployment by name.`,
      );
    }
    throw error;
  }
}
