/**
 * The first problem a zod `safeParse` reported, as `<at>.<path>: <message>`
 * (one line, for a definition error); `at` names the value that was parsed.
 */
export function firstIssue(error: unknown, at: string): string {
  const issue = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0];
  const path = [at, ...(issue?.path.map(String) ?? [])].join('.');
  return `${path}: ${issue?.message ?? 'is invalid'}`;
}
