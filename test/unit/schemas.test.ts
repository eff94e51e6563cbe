import { describe, expect, it } from 'vitest';
import {
  CreateDeploymentRequestSchema,
  DeploymentSchema,
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
