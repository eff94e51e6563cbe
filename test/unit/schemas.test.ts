import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE } from '../../src/api/client.ts';
import {
  CreateDeploymentRequestSchema,
  DeploymentSchema,
  ListDeploymentsQuerySchema,
  ResourceSpecSchema,
  RevisionSchema,
} from '../../src/api/schemas.ts';

describe('received schemas are lenient', () => {
  it('keeps unknown fields and unknown enum values of a deployment', () => {
    const parsed = DeploymentSchema.parse({
      id: 'd1',
      name: 'agent',
      status: 'SOMETHING_NEW',
      tenant_id: 't-1',
      source_config: { custom_url: null, brand_new: 1 },
    });
    expect(parsed.status).toBe('SOMETHING_NEW');
    expect(parsed.tenant_id).toBe('t-1');
    expect(parsed.source_config?.brand_new).toBe(1);
  });

  it('accepts a deployment whose name is null, and a tier the action does not know', () => {
    const parsed = DeploymentSchema.parse({
      id: 'd1',
      name: null,
      source_config: { deployment_type: 'dev_turbo' },
    });
    expect(parsed.name).toBeNull();
    expect(parsed.source_config?.deployment_type).toBe('dev_turbo');
  });

  it('accepts a revision status the action does not know', () => {
    expect(RevisionSchema.parse({ id: 'r1', status: 'WARMING_UP' }).status).toBe('WARMING_UP');
  });
});

describe('sent schemas are strict', () => {
  it('rejects an unknown resource_spec key', () => {
    const result = ResourceSpecSchema.safeParse({ min_scale: 1, max_scael: 2 });
    expect(result.success).toBe(false);
  });

  it('rejects a fractional integer field but accepts fractional cpu', () => {
    expect(ResourceSpecSchema.safeParse({ memory_mb: 512.5 }).success).toBe(false);
    expect(ResourceSpecSchema.safeParse({ cpu: 0.5, memory_mb: 512 }).success).toBe(true);
  });

  it('rejects an unknown source kind on create', () => {
    const result = CreateDeploymentRequestSchema.safeParse({
      name: 'a',
      source: 'ftp',
      source_config: {},
      source_revision_config: {},
      secrets: [],
    });
    expect(result.success).toBe(false);
  });
});

describe('the first page of a lookup by name', () => {
  // The first request of most runs (checkListQuery in client.ts checks it like every other): it
  // must be one the schema accepts for every name, unchanged and in the schema's key order.
  it('is accepted by the list query schema whatever the name', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        const query = { name_contains: name, limit: MAX_PAGE_SIZE, offset: 0 };
        const checked = ListDeploymentsQuerySchema.parse(query);
        expect(Object.entries(checked)).toEqual([
          ['limit', MAX_PAGE_SIZE],
          ['offset', 0],
          ['name_contains', name],
        ]);
      }),
    );
  });
});
