/** How each outcome looks wherever a person reads it (job summary, PR comment). */
import type { Outcome } from './types.ts';

export const OUTCOME_EMOJI: Record<Outcome, string> = {
  success: '✅',
  warning: '⚠️',
  failure: '❌',
  timeout: '⏱️',
  cancelled: '🚫',
  planned: '📝',
};
