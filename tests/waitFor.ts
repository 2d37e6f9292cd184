/**
 * A bounded poll for every test layer: a test that checks a state after an action waits for
 * that state, never for a fixed time. `check` is tried at once and then every `intervalMs`
 * until it answers something truthy (which is returned) or `timeoutMs` has passed; then the
 * wait fails naming `what` it waited for and the last answer it got.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  { timeoutMs = 5000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(value)})`,
      );
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
