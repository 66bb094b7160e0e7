import { followAuthorization } from '../support/oidc/index.js';

/*
 * The operator console's sign-in as a browser goes through it, on its own so that code built
 * outside the test suites (the bench's console fixture) can use it too: this file imports only
 * the issuer's user agent.
 */

export const SESSION_COOKIE = '__Host-warden-console';
const LOGIN_COOKIE = '__Host-warden-console-login';

export interface ConsoleSignInResult {
  /** The callback's answer. */
  readonly status: number;
  readonly setCookies: readonly string[];
  /** `name=value` of the session cookie, when one was issued. */
  readonly cookie?: string;
  readonly body: string;
}

/** Signs `subject` in through the console (`/login` → the issuer → `/callback`), as a browser would. */
export async function signInThroughConsole(
  consoleUrl: string,
  subject: string,
): Promise<ConsoleSignInResult> {
  const login = await fetch(`${consoleUrl}/login`, { redirect: 'manual' });
  if (login.status !== 303) throw new Error(`login: HTTP ${login.status}`);
  const loginCookie = pairOf(login.headers.getSetCookie(), LOGIN_COOKIE);
  const authorization = new URL(login.headers.get('location')!);
  authorization.searchParams.set('login_hint', subject);
  const { redirect } = await followAuthorization(authorization);
  const callback = await fetch(redirect, {
    redirect: 'manual',
    headers: loginCookie ? { cookie: loginCookie } : {},
  });
  const setCookies = callback.headers.getSetCookie();
  return {
    status: callback.status,
    setCookies,
    cookie: pairOf(setCookies, SESSION_COOKIE),
    body: await callback.text(),
  };
}

/** `name=value` of the cookie `name` a response sets (not one it clears). */
export function pairOf(setCookies: readonly string[], name: string): string | undefined {
  const line = setCookies.find((cookie) => cookie.startsWith(`${name}=`));
  const pair = line?.split(';')[0];
  return pair && pair !== `${name}=` ? pair : undefined;
}
