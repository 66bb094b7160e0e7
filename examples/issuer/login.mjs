// The issuer's sign-in page (oidc-provider leaves it to the host application): an account name,
// no password. Development only, like the rest of this issuer.

/** Account names accepted: short, no markup, nothing a log line could be forged with. */
const ACCOUNT = /^[\w.@-]{1,64}$/;
/** The login form's body is one short field. */
const MAX_FORM_BYTES = 1024;

/**
 * Answers `/interaction/<uid>`: a `login_hint` on the authorization request (what a test or a
 * script sends) signs that account in at once; otherwise a browser gets a form asking for the
 * account name and is signed in on submit. Consent never comes here: accounts.mjs decides it.
 */
export function loginInteractions(provider) {
  return async function interact(req, res) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name !== 'login') {
      throw new Error(`no page for the ${details.prompt.name} prompt`);
    }
    const hint = details.params.login_hint;
    const typed =
      req.method === 'POST' ? new URLSearchParams(await readForm(req)).get('login') : '';
    const account = (typeof hint === 'string' && hint) || typed?.trim();
    if (!account || !ACCOUNT.test(account)) return loginForm(res, details.uid);
    await provider.interactionFinished(req, res, { login: { accountId: account } });
  };
}

function loginForm(res, uid) {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head>
<body><main><h1>Sign in to the example issuer</h1>
<form method="post" action="/interaction/${encodeURIComponent(uid)}">
<label for="login">Account</label> <input id="login" name="login" autocomplete="username" required>
<button type="submit">Sign in</button>
</form></main></body></html>`);
}

function readForm(req) {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
      if (body.length > MAX_FORM_BYTES) req.destroy(new Error('login form too large'));
    });
    req.once('end', () => resolve(body));
    req.once('error', reject);
  });
}
