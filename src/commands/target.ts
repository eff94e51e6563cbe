/** Finding the deployment a command acts on: by `deployment-id`, or by exact `name`. */
import { ApiError } from '../api/errors.ts';
import type { Deployment } from '../api/schemas.ts';
import { InputError } from '../parse/index.ts';
import type { CommandContext } from './context.ts';

/** `deployment-id` names no deployment: to delete, that means "already gone". */
export class UnknownDeploymentIdError extends InputError {}

/** The addressed deployment, or undefined when none has that name. An unknown id is an error. */
export async function findDeployment(ctx: CommandContext): Promise<Deployment | undefined> {
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
  const found = await client.findByName(name, { signal: ctx.signal });
  log.info(found ? `Found deployment ${name} (${found.id}).` : `No deployment is named ${name}.`);
  return found;
}

/** Like findDeployment, for commands that cannot go on without it. */
export async function requireDeployment(ctx: CommandContext): Promise<Deployment> {
  const found = await findDeployment(ctx);
  if (found) return found;
  throw new InputError(
    'name',
    `Input 'name' is '${ctx.settings.target.name}', and no deployment has that name${ctx.settings.api.tenantId ? ` in workspace ${ctx.settings.api.tenantId}` : ''}. Check the name (and 'tenant-id'), or create it with 'command: deploy'.`,
  );
}

async function getById(ctx: CommandContext, deploymentId: string): Promise<Deployment> {
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
