import type { ServerResponse } from 'node:http';
import type { McpOperatorAskRecord } from '../operator/operator-ask.interface.js';
import type { WebhookLinkDecision } from './webhook-link.codec.js';

/*
 * The page's headers: never cached or stored (it is reached by a bearer
 * link), never framed (a framed button is a clickjacking target), no
 * Referer (the token is in the URL), no script at all, and a form may post
 * only back to this origin.
 */
const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'X-Robots-Tag': 'noindex',
};

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

/** Writes a page: `title` and `body` (already escaped HTML). */
export function sendPage(res: ServerResponse, status: number, title: string, body: string): void {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>body{font:16px system-ui,sans-serif;max-width:40rem;` +
    `margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f4f4f4;padding:.5rem}` +
    `textarea{width:100%}button{font-size:1rem;padding:.5rem 1.5rem}</style></head>` +
    `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  res.writeHead(status, { ...PAGE_HEADERS, 'Content-Length': Buffer.byteLength(html) });
  res.end(html);
}

/** Writes a page that only says `message`. */
export function sendMessagePage(
  res: ServerResponse,
  status: number,
  title: string,
  message: string,
): void {
  sendPage(res, status, title, `<p>${escapeHtml(message)}</p>`);
}

/**
 * The confirmation page a link's GET shows: what is asked, and a form that
 * POSTs back to the same link. Opening the link (or a chat app's preview
 * fetching it) changes nothing; only the button does.
 */
export function sendConfirmationPage(
  res: ServerResponse,
  ask: McpOperatorAskRecord,
  decision: WebhookLinkDecision,
  problem?: string,
): void {
  const approve = decision === 'approve';
  const caller = ask.caller.subject ?? ask.caller.key;
  const body =
    (problem ? `<p role="alert"><strong>${escapeHtml(problem)}</strong></p>` : '') +
    `<p>The tool <strong>${escapeHtml(ask.tool)}</strong> waits for an operator.</p>` +
    `<p>${escapeHtml(ask.prompt)}</p>` +
    `<p>Caller: <code>${escapeHtml(caller)}</code><br>` +
    `Waits until ${escapeHtml(new Date(ask.expiresAt).toISOString())}</p>` +
    `<pre>${escapeHtml(ask.preview)}</pre>` +
    `<form method="post">` +
    (approve
      ? ''
      : `<p><label for="reason">Reason (the caller sees it)</label><br>` +
        `<textarea id="reason" name="reason" rows="3" maxlength="500" required></textarea></p>`) +
    `<button type="submit">${approve ? 'Approve' : 'Deny'}</button></form>`;
  sendPage(res, problem ? 400 : 200, approve ? 'Approve this call?' : 'Deny this call?', body);
}
