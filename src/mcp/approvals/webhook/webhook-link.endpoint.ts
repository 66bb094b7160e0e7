import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_NONCE_STORE, type McpNonceStore } from '../../core/stores/nonce-store.interface.js';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import { McpTooManyRequestsError } from '../../core/errors/protocol.errors.js';
import { McpClientGoneError } from '../../core/http/client-gone.error.js';
import { McpHttpError } from '../../core/http/mcp-http.error.js';
import { requestPath } from '../../core/http/request-path.js';
import { McpBodyReader } from '../../core/http/body-reader.service.js';
import {
  MCP_OPERATOR_DESK,
  type McpOperatorDesk,
  type McpOperatorDeskProblem,
} from '../operator/operator-desk.interface.js';
import type { WebhookLinkClaims } from './webhook-link.codec.js';
import { sendConfirmationPage, sendMessagePage } from './webhook-link.page.js';
import { McpWebhookLinks } from './webhook-links.service.js';
import { readFormReason } from './webhook-form.reader.js';
import { MCP_WEBHOOK_SETTINGS, type McpWebhookSettings } from './webhook-settings.js';

/** What the page says when the form's body was refused (the reader's statuses); else BUSY. */
const BODY_REFUSED: Record<number, string> = {
  408: 'The form did not arrive in time. Try again.',
  413: 'The form was too large.',
};
const BUSY = 'The server is busy. Try again shortly.';
/** Seconds a refused link is told to wait when the single-use ids are all in use. */
const BUSY_RETRY_AFTER_S = 30;

/** The issuer recorded for link decisions: no token issuer can share it, so no caller is a link. */
export const WEBHOOK_LINK_ISSUER = 'urn:mcp-warden:webhook-link';

const PROBLEM_STATUS: Record<McpOperatorDeskProblem, number> = {
  'not found': 404,
  'already decided': 409,
  'own call': 403,
  'not an approver': 403,
  'reason required': 400,
};

/**
 * Serves `<console path>/link/<token>`. A GET shows what the link would do
 * and a button; only the POST decides, because chat apps and mail scanners
 * fetch links to preview them. The POST checks the signature and expiry,
 * consumes the link's id once across instances, then decides through the
 * desk as the link itself (`webhook-link:<jti>`), so the audit names the
 * link that decided: the person is whoever held it.
 */
@Injectable()
export class McpWebhookLinkEndpoint {
  private readonly logger = new Logger('McpApprovals');

  constructor(
    @Inject(MCP_WEBHOOK_SETTINGS) private readonly settings: McpWebhookSettings | null,
    private readonly links: McpWebhookLinks,
    @Inject(MCP_NONCE_STORE) private readonly nonces: McpNonceStore,
    @Inject(MCP_OPERATOR_DESK) private readonly desk: McpOperatorDesk,
    private readonly bodies: McpBodyReader,
  ) {}

  /**
   * Answers one request; never rejects. A full store of single-use ids is a 503 page with
   * `Retry-After`; any other failure a 500 page, its detail logged.
   */
  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (req.method === 'GET' || req.method === 'HEAD') await this.show(req, res);
      else if (req.method === 'POST') await this.decide(req, res);
      else {
        res.setHeader('Allow', 'GET, HEAD, POST');
        sendMessagePage(res, 405, 'Method not allowed', 'Open the link in a browser.');
      }
    } catch (error) {
      if (error instanceof McpTooManyRequestsError && !res.headersSent) {
        // The server's single-use ids are all in use (bounded apart from callers'): busy, not
        // broken. The link was not consumed, so it still works once ids expire.
        this.logger.warn(`Webhook link refused: ${error.message}`);
        res.setHeader('Retry-After', String(BUSY_RETRY_AFTER_S));
        return sendMessagePage(res, 503, 'Busy', 'Nothing was decided. Try again shortly.');
      }
      this.logger.error(`Webhook link failed: ${(error as Error)?.stack ?? String(error)}`);
      if (res.headersSent) res.end();
      else sendMessagePage(res, 500, 'Something went wrong', 'Nothing was decided. Try again.');
    }
  }

  private async show(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const claims = this.claimsOf(req, res);
    if (!claims) return;
    const ask = await this.desk.get(claims.askId);
    if (!ask) return sendMessagePage(res, 404, 'Not found', 'This call no longer waits.');
    if (ask.decision)
      return sendMessagePage(res, 409, 'Already decided', decidedText(ask.decision));
    sendConfirmationPage(res, ask, claims.decision);
  }

  private async decide(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Until the body is read whole, the answer ends the connection (Node would wait for the rest):
    // a link that is not valid is refused without reading it, and holds no socket past that.
    res.setHeader('Connection', 'close');
    const claims = this.claimsOf(req, res);
    if (!claims) return;
    const reason = await this.reasonOf(req, res);
    if (reason === undefined) return;
    res.removeHeader('Connection');
    if (reason === null) return sendMessagePage(res, 400, 'Bad request', 'The form was garbled.');
    if (claims.decision === 'deny' && !reason) {
      // Checked before the link is consumed, so the operator can still send a reason.
      const ask = await this.desk.get(claims.askId);
      if (!ask) return sendMessagePage(res, 404, 'Not found', 'This call no longer waits.');
      return sendConfirmationPage(res, ask, 'deny', 'A reason is required to deny.');
    }
    // Consumed first: a replay is a replay (409) whether or not its ask still waits.
    if (!(await this.nonces.consume('webhook-link:' + claims.jti, claims.exp))) {
      return sendMessagePage(res, 409, 'Link already used', 'Each link works once.');
    }
    const outcome = await this.desk.decide(claims.askId, this.operatorOf(claims), {
      approve: claims.decision === 'approve',
      reason: reason || undefined,
      via: 'webhook-link',
    });
    if (!outcome.ok) {
      const { problem } = outcome;
      return problem === 'not found'
        ? sendMessagePage(res, 404, 'Not found', 'This call no longer waits.')
        : sendMessagePage(res, PROBLEM_STATUS[problem], 'Not decided', `Not decided: ${problem}.`);
    }
    const approved = claims.decision === 'approve';
    sendMessagePage(
      res,
      200,
      approved ? 'Approved' : 'Denied',
      approved ? 'The call runs now.' : 'The call was denied.',
    );
  }

  /* The form's reason (null: not a form), or undefined once the body was refused and answered. */
  private async reasonOf(req: IncomingMessage, res: ServerResponse) {
    try {
      return await readFormReason(req, this.bodies);
    } catch (error) {
      if (error instanceof McpClientGoneError) res.destroy();
      else if (error instanceof McpHttpError) {
        sendMessagePage(res, error.status, 'Not decided', BODY_REFUSED[error.status] ?? BUSY);
      } else throw error;
      return undefined;
    }
  }

  /** The token's claims, or undefined once an error page was sent. */
  private claimsOf(req: IncomingMessage, res: ServerResponse): WebhookLinkClaims | undefined {
    // The token is the one segment after the link path (Fastify's route is a wildcard).
    const path = requestPath(req);
    const prefix = this.links.routePath() + '/';
    const segment = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    const token = segment.includes('/') ? '' : decodeSegment(segment);
    const decoded = this.links.codec!.decode(token);
    if (decoded.ok) return decoded.claims;
    if (decoded.problem === 'expired') {
      sendMessagePage(res, 410, 'Link expired', 'Decide in the operator console instead.');
    } else {
      sendMessagePage(res, 400, 'Invalid link', 'This link is not valid.');
    }
    return undefined;
  }

  private operatorOf(claims: WebhookLinkClaims): McpPrincipal {
    return {
      subject: `webhook-link:${claims.jti}`,
      issuer: WEBHOOK_LINK_ISSUER,
      scopes: [this.settings!.scope],
      claims: { link: claims.jti, decision: claims.decision },
    };
  }
}

function decidedText(decision: { approved: boolean; via: string }): string {
  return `This call was already ${decision.approved ? 'approved' : 'denied'} (${decision.via}).`;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}
