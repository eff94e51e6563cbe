/**
 * The query of GET /v2/deployments: parsing with pydantic-like 422s, and filtering.
 * Unknown query parameters are ignored, as a FastAPI server does.
 */
import type { Deployment } from './api-shapes.ts';
import { DEPLOYMENT_STATUSES, DEPLOYMENT_TYPES } from './api-shapes.ts';
import { issue, type ValidationIssue } from './validation.ts';

export const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export interface ListFilters {
  limit: number;
  offset: number;
  nameContains?: string;
  status?: string;
  remoteReconciled?: boolean;
  tagValueIds?: string[];
  imageVersion?: string;
  deploymentType?: string;
  deploymentIds?: string[];
}

export type ListQueryCheck =
  | { ok: true; filters: ListFilters }
  | { ok: false; issues: ValidationIssue[] };

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/** Collects the issues of every parameter, so a 422 lists them all like pydantic does. */
class QueryReader {
  readonly issues: ValidationIssue[] = [];
  private readonly query: URLSearchParams;

  constructor(query: URLSearchParams) {
    this.query = query;
  }

  string(name: string): string | undefined {
    return this.query.get(name) ?? undefined;
  }

  integer(name: string, fallback: number, min: number, max = Infinity): number {
    const text = this.query.get(name);
    if (text === null) return fallback;
    if (!/^\s*[+-]?\d+\s*$/.test(text)) {
      this.issues.push(
        issue(
          ['query', name],
          'Input should be a valid integer, unable to parse string as an integer',
          'int_parsing',
        ),
      );
      return fallback;
    }
    const value = Number.parseInt(text, 10);
    if (value < min) {
      this.issues.push(
        issue(
          ['query', name],
          `Input should be greater than or equal to ${min}`,
          'greater_than_equal',
        ),
      );
    } else if (value > max) {
      this.issues.push(
        issue(['query', name], `Input should be less than or equal to ${max}`, 'less_than_equal'),
      );
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    const text = this.query.get(name)?.trim().toLowerCase();
    if (text === undefined) return undefined;
    if (TRUE_WORDS.has(text)) return true;
    if (FALSE_WORDS.has(text)) return false;
    this.issues.push(
      issue(
        ['query', name],
        'Input should be a valid boolean, unable to interpret input',
        'bool_parsing',
      ),
    );
    return undefined;
  }

  oneOf(name: string, allowed: readonly string[]): string | undefined {
    const text = this.query.get(name);
    if (text === null) return undefined;
    if (!allowed.includes(text)) {
      const expected = allowed.map((value) => `'${value}'`).join(', ');
      this.issues.push(issue(['query', name], `Input should be ${expected}`, 'enum'));
    }
    return text;
  }

  commaList(name: string): string[] | undefined {
    const text = this.query.get(name);
    if (text === null) return undefined;
    return text
      .split(',')
      .map((each) => each.trim())
      .filter((each) => each !== '');
  }
}

export function parseListQuery(query: URLSearchParams): ListQueryCheck {
  const reader = new QueryReader(query);
  const filters: ListFilters = {
    limit: reader.integer('limit', DEFAULT_LIMIT, 1, MAX_LIMIT),
    offset: reader.integer('offset', 0, 0),
    nameContains: reader.string('name_contains'),
    status: reader.oneOf('status', DEPLOYMENT_STATUSES),
    remoteReconciled: reader.boolean('remote_reconciled'),
    tagValueIds: reader.commaList('tag_value_ids'),
    imageVersion: reader.string('image_version'),
    deploymentType: reader.oneOf('deployment_type', DEPLOYMENT_TYPES),
    deploymentIds: reader.commaList('deployment_ids'),
  };
  return reader.issues.length > 0 ? { ok: false, issues: reader.issues } : { ok: true, filters };
}

function matches(deployment: Deployment, filters: ListFilters): boolean {
  const { nameContains, status, remoteReconciled, imageVersion, deploymentType } = filters;
  // Assumed case-insensitive, like a SQL ILIKE: names are lower-case anyway.
  if (nameContains !== undefined && !deployment.name.includes(nameContains.toLowerCase()))
    return false;
  if (status !== undefined && deployment.status !== status) return false;
  if (remoteReconciled !== undefined && deployment.remote_reconciled !== remoteReconciled)
    return false;
  // The emulator has no tags: a non-empty tag filter matches no deployment.
  if (filters.tagValueIds !== undefined && filters.tagValueIds.length > 0) return false;
  if (imageVersion !== undefined && deployment.image_version !== imageVersion) return false;
  if (deploymentType !== undefined && deployment.source_config.deployment_type !== deploymentType)
    return false;
  if (filters.deploymentIds !== undefined && !filters.deploymentIds.includes(deployment.id))
    return false;
  return true;
}

/**
 * One page of the filtered deployments. `offset` in the answer is where the next page starts;
 * past the end the page is empty and the offset stops growing. With `pageCap` a page holds at
 * most that many items whatever `limit` asks, so a short page is not the last one.
 */
export function listPage(
  deployments: Deployment[],
  filters: ListFilters,
  pageCap?: number,
): { resources: Deployment[]; offset: number } {
  const size = Math.min(filters.limit, pageCap ?? filters.limit);
  const resources = deployments
    .filter((deployment) => matches(deployment, filters))
    .slice(filters.offset, filters.offset + size);
  return { resources, offset: filters.offset + resources.length };
}
