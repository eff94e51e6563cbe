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
  /** The exact-name filter of newer servers; undefined when absent or not supported. */
  name?: string;
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

/** `exactName`: the server has the `name` filter (else it ignores the parameter, as FastAPI does). */
export function parseListQuery(query: URLSearchParams, exactName = false): ListQueryCheck {
  const reader = new QueryReader(query);
  const filters: ListFilters = {
    limit: reader.integer('limit', DEFAULT_LIMIT, 1, MAX_LIMIT),
    offset: reader.integer('offset', 0, 0),
    nameContains: reader.string('name_contains'),
    ...(exactName ? { name: reader.string('name') } : {}),
    status: reader.oneOf('status', DEPLOYMENT_STATUSES),
    remoteReconciled: reader.boolean('remote_reconciled'),
    tagValueIds: reader.commaList('tag_value_ids'),
    imageVersion: reader.string('image_version'),
    deploymentType: reader.oneOf('deployment_type', DEPLOYMENT_TYPES),
    deploymentIds: reader.commaList('deployment_ids'),
  };
  return reader.issues.length > 0 ? { ok: false, issues: reader.issues } : { ok: true, filters };
}

function matches(
  deployment: Deployment,
  filters: ListFilters,
  namelessMatchNames: boolean,
): boolean {
  const { nameContains, status, remoteReconciled, imageVersion, deploymentType } = filters;
  const { name } = deployment;
  // A deployment without a name (an agent builder's) matches a name filter only when told to.
  if (name === null) {
    if ((nameContains !== undefined || filters.name !== undefined) && !namelessMatchNames)
      return false;
  } else {
    // Assumed case-insensitive, like a SQL ILIKE: names are lower-case anyway.
    if (nameContains !== undefined && !name.includes(nameContains.toLowerCase())) return false;
    if (filters.name !== undefined && name !== filters.name) return false;
  }
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

/** How a server fills a page's `offset` (EmulatorOptions.listOffset). */
export type ListOffsetAnswer = 'next' | 'null' | 'sent';

/**
 * The `offset` a page answers: where the next page starts ('next'; past the end the page is
 * empty and the offset stops growing), null, or the offset sent, as servers differ.
 */
export function answeredOffset(
  sent: number,
  pageLength: number,
  how: ListOffsetAnswer,
): number | null {
  if (how === 'null') return null;
  return how === 'sent' ? sent : sent + pageLength;
}

/**
 * How many items a page holds: `limit`, or fewer with a `pageCap` (EmulatorOptions.pageCap), so
 * that a short page is not the last one.
 */
export function pageSize(limit: number, pageCap: number | undefined): number {
  return pageCap === undefined ? limit : Math.min(limit, pageCap);
}

/** One page of the filtered deployments (pageSize items at most). */
export function listPage(
  deployments: Deployment[],
  filters: ListFilters,
  server: {
    pageCap: number | undefined;
    offsetAnswer: ListOffsetAnswer;
    /** EmulatorOptions.namelessInNameFilters. */
    namelessMatchNames: boolean;
  },
): { resources: Deployment[]; offset: number | null } {
  const { pageCap, offsetAnswer, namelessMatchNames } = server;
  const size = pageSize(filters.limit, pageCap);
  const resources = deployments
    .filter((deployment) => matches(deployment, filters, namelessMatchNames))
    .slice(filters.offset, filters.offset + size);
  return {
    resources,
    offset: answeredOffset(filters.offset, resources.length, offsetAnswer),
  };
}
