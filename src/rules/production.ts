/**
 * After a revision failed: did production change? A failed revision usually never went live, and
 * then a rollback would move a healthy production to older code; it is advised only when the
 * revision that failed is the one serving.
 */

interface ProductionFacts {
  /** The deployment's name, for the sentence. */
  name: string;
  /** The revision that failed (or, for the smoke test, the one that did not answer). */
  revisionId: string;
  /**
   * active_revision_id as read after the revision ended; undefined when the deployment serves no
   * revision. Only meaningful when `known`.
   */
  activeRevisionId: string | undefined;
  /** false when the deployment could not be read after the revision ended. */
  known: boolean;
}

interface ProductionState {
  /** One sentence for the reason: what serves now. */
  serving: string;
  /** The revision in question is live: a rollback is worth advising. */
  badRevisionLive: boolean;
  /** One sentence for the next step: roll back, or why not. */
  rollbackAdvice: string;
}

export const ROLLBACK_HOW = "roll back with 'command: redeploy' and 'revision-id: previous'";

export function productionAfterFailure(facts: ProductionFacts): ProductionState {
  const { name, revisionId, activeRevisionId, known } = facts;
  if (!known) {
    return {
      serving: `Whether production changed is not known: deployment ${name} could not be read after the revision ended.`,
      badRevisionLive: false,
      rollbackAdvice: `Check which revision serves with 'command: status' before any rollback: ${ROLLBACK_HOW} only if revision ${revisionId} is the active one.`,
    };
  }
  if (activeRevisionId === revisionId) {
    return {
      serving: `Production changed: revision ${revisionId} is the active revision of ${name}.`,
      badRevisionLive: true,
      rollbackAdvice: `To put the code that served before it back, ${ROLLBACK_HOW}.`,
    };
  }
  if (activeRevisionId === undefined) {
    return {
      serving: `Production did not change: no revision of ${name} serves yet.`,
      badRevisionLive: false,
      rollbackAdvice: 'There is nothing to roll back.',
    };
  }
  return {
    serving: `Production did not change: revision ${activeRevisionId} still serves.`,
    badRevisionLive: false,
    rollbackAdvice: `No rollback is needed: revision ${activeRevisionId} still serves.`,
  };
}
