/**
 * Spec §8: "At the service level, login, password reset and image upload
 * failures return false with no message (only logged)." The service
 * functions of those three calls run through `succeeded`: the caller gets
 * a plain boolean and picks the words it shows (the UI's messages of §8);
 * what went wrong goes to the log only.
 */

/** Where a service failure is written: the operation's name and the error. */
export type FailureLog = (operation: string, error: unknown) => void;

/** The default log: the browser console, as an error. */
export const logFailure: FailureLog = (operation, error) => {
  console.error(`[service] ${operation} failed`, error);
};

/**
 * Runs `run` and reduces its outcome to a boolean.
 * @param operation a name for the log, e.g. 'login'
 * @param run the call; throwing (or rejecting) means failure
 * @param log where a failure is written (default: console.error)
 * @returns true when `run` resolved; false when it threw (logged, never rethrown)
 */
export async function succeeded(
  operation: string,
  run: () => Promise<unknown>,
  log: FailureLog = logFailure,
): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    log(operation, error);
    return false;
  }
}
