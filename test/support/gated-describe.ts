/**
 * `describe(title, body)` when what the suite needs was found. When it was
 * not: with `requireEnv=1`, one failing test that says why (CI: an absent
 * dependency cannot pass as a skip); otherwise the suite is skipped and one
 * printed line says why.
 */
export function describeGated<T>(
  found: { readonly value: T } | { readonly reason: string },
  title: string,
  requireEnv: string,
  body: (value: T) => void,
  placeholder: T,
): void {
  if ('value' in found) {
    describe(title, () => body(found.value));
    return;
  }
  const message = `${title}: ${found.reason}`;
  if (process.env[requireEnv] === '1') {
    describe(title, () => {
      it('has what it needs', () => {
        throw new Error(`${message} (${requireEnv}=1 requires it)`);
      });
    });
    return;
  }
  process.stdout.write(`skipped ${message} (set ${requireEnv}=1 to fail instead)\n`);
  // The tests are declared (and reported as skipped) but never run, so `placeholder` is never read.
  describe.skip(title, () => body(placeholder));
}
