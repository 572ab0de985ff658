/**
 * Like Promise.all, but waits for every promise before throwing the first failure. Setup code
 * that builds fixture hosts in parallel uses it, so when one build fails the others have finished
 * writing before the file's cleanup removes their directories (rm would race them: ENOTEMPTY).
 */
export async function allOrThrow<T>(promises: Iterable<Promise<T>>): Promise<T[]> {
  const outcomes = await Promise.allSettled(promises);
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}
