import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { teamAddressProblem, type TeamAddressProblem } from '../../../src/contract/sign-up';
import type { Repositories } from '../db/repositories';

/**
 * Offensive words, by `obscenity` (a maintained list with its look-alike and leetspeak folding; English
 * only: docs/decisions/sign-up.md says why that is enough for a name people see in an address).
 */
const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });

/** Whether a team's name or address reads as offensive. */
export function isOffensive(text: string): boolean {
  return matcher.hasMatch(text);
}

/** Why a new team may not take the address (already normalised), or null when it may. */
export async function addressProblem(
  repos: Repositories,
  address: string,
): Promise<TeamAddressProblem | null> {
  const problem = teamAddressProblem(address);
  if (problem) return problem;
  if (isOffensive(address)) return 'offensive';
  if (await repos.teams.findByName(address)) return 'taken';
  return null;
}
