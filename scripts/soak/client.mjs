// @ts-check
import { CALL_TIMEOUT_MS, NOTIFY_TIMEOUT_MS } from './options.mjs';
import { figures, problem, timeout } from './figures.mjs';

/** @typedef {Record<string, any>} Msg */

/**
 * A uniformly random element of `items`.
 * @template T
 * @param {readonly T[]} items
 * @returns {T}
 */
function pick(items) {
  return items[Math.floor(Math.random() * items.length)];
}

/** What each operation sends and what its answer must be. */
export const OPERATIONS = [
  { name: 'echo', weight: 30 },
  { name: 'slow_echo', weight: 15 },
  { name: 'guarded', weight: 20 },
  { name: 'read', weight: 15 },
  { name: 'touch', weight: 10 },
  { name: 'ping', weight: 10 },
];
const TOTAL_WEIGHT = OPERATIONS.reduce((sum, op) => sum + op.weight, 0);

/** An operation name, drawn by weight. */
export function randomOperation() {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const op of OPERATIONS) {
    roll -= op.weight;
    if (roll < 0) return op.name;
  }
  return 'ping';
}

/**
 * One client session, over either transport. `send(message)` resolves with the list of
 * responses carrying the message's id (normally exactly one).
 */
export class Client {
  /**
   * @param {'http' | 'stdio'} kind
   * @param {string} token
   * @param {number} maxCalls the run's bound on calls (Infinity for the warm-up)
   */
  constructor(kind, token, maxCalls) {
    this.kind = kind;
    this.maxCalls = maxCalls;
    this.token = token;
    this.uri = `soak://session/${token}`;
    /** @type {string | undefined} */
    this.connId = undefined;
    this.nextId = 1;
    this.touches = 0;
    this.updates = 0;
    /** @type {{ count: number, resolve: () => void }[]} */
    this.updateWaiters = [];
    /**
     * Decisions for guarded calls by text.
     * @type {Map<string, 'approve' | 'decline' | 'ignore'>}
     */
    this.decisions = new Map();
    /**
     * Approved guarded calls by text: when the call was sent, and when the server acknowledged
     * the approval (HTTP: the POST's answer; stdio: the write, which has no acknowledgement).
     * @type {Map<string, { sentAt: number, ackedAt?: number }>}
     */
    this.approvals = new Map();
    /** @type {Map<string | number, string>} elicitation request id → the guarded call's text */
    this.answered = new Map();
  }

  /** The app's elicitation timeout, ms (soak.mjs sets it from the run's options). */
  static elicitationTimeoutMs = Infinity;

  /**
   * The server has the answer `answer` (see `approvals`).
   * @param {Msg} answer
   */
  acknowledge(answer) {
    const text = this.answered.get(answer.id);
    this.answered.delete(answer.id);
    const approval = text === undefined ? undefined : this.approvals.get(text);
    if (approval) approval.ackedAt = performance.now();
  }

  /**
   * Whether an approval may have reached the server after its elicitation timed out. The
   * server's deadline is at least the timeout after the call was sent; an approval acknowledged
   * before that instant was in time, so a timeout then is wrong. One acknowledged later (or not
   * yet), beside hostile clients on a loaded machine, may have arrived after the deadline, and
   * the server rightly took silence as a refusal.
   * @param {string} text
   */
  approvalMayBeLate(text) {
    const approval = this.approvals.get(text);
    if (!approval) return false;
    return !(
      approval.ackedAt !== undefined &&
      approval.ackedAt <= approval.sentAt + Client.elicitationTimeoutMs
    );
  }

  /**
   * A notification arrived for this client.
   * @param {Msg} message
   */
  onNotification(message) {
    if (message.method !== 'notifications/resources/updated') return;
    if (message.params?.uri !== this.uri) {
      problem('crossed', `${this.token} got an update for ${message.params?.uri}`);
      return;
    }
    this.updates++;
    figures.notifications++;
    this.updateWaiters = this.updateWaiters.filter((w) => {
      if (this.updates < w.count) return true;
      w.resolve();
      return false;
    });
  }

  /**
   * Resolves once `count` updates have arrived (or after the notification bound).
   * @param {number} count
   */
  async awaitUpdates(count) {
    if (this.updates >= count) return;
    const bound = timeout(NOTIFY_TIMEOUT_MS, 'update');
    /** @type {Promise<void>} */
    const arrived = new Promise((resolve) => this.updateWaiters.push({ count, resolve }));
    try {
      await Promise.race([arrived, bound.promise]);
    } catch {
      problem('lostNotifications', `${this.token} waited for update ${count}`);
    } finally {
      bound.cancel();
    }
  }

  /**
   * The answer to a server request (an elicitation) for this client, or undefined to ignore it.
   * @param {Msg} request
   * @returns {Msg | undefined}
   */
  answerTo(request) {
    if (request.method !== 'elicitation/create') return undefined;
    const match = /^Run guarded for (.+)\/(.+)\?$/.exec(request.params?.message ?? '');
    if (!match || match[1] !== this.token) {
      problem('crossed', `${this.token} was asked: ${request.params?.message}`);
      return { jsonrpc: '2.0', id: request.id, result: { action: 'decline' } };
    }
    const decision = this.decisions.get(match[2]);
    if (decision === 'approve') {
      this.answered.set(request.id, match[2]);
      return {
        jsonrpc: '2.0',
        id: request.id,
        result: { action: 'accept', content: { approve: true } },
      };
    }
    if (decision === 'decline')
      return { jsonrpc: '2.0', id: request.id, result: { action: 'decline' } };
    return undefined; // 'ignore': the server's elicitation timeout decides
  }

  /**
   * Checks an echo result: our token and text, and one connection id for the whole session.
   * @param {Msg | undefined} result
   * @param {string} text
   * @param {string} what
   */
  checkEcho(result, text, what) {
    const sc = result?.structuredContent;
    if (!sc || result.isError) return problem('wrong', `${what}: ${JSON.stringify(result)}`);
    if (sc.token !== this.token || sc.text !== text) {
      return problem('crossed', `${what} for ${this.token}/${text}: ${JSON.stringify(sc)}`);
    }
    this.connId ??= sc.connId;
    if (sc.connId !== this.connId)
      problem('crossed', `${what}: connId ${sc.connId} ≠ ${this.connId}`);
  }

  /**
   * Runs one operation and checks its answer.
   * @param {string} op
   * @param {Map<string, string>} seenConnIds connection id → the token of the session that used it
   */
  async operate(op, seenConnIds) {
    if (figures.calls >= this.maxCalls) return;
    const n = this.nextId;
    const text = `${op}-${n}`;
    /** @type {Msg} */
    let message;
    /** @type {(response: Msg) => void | Promise<void>} */
    let check;
    switch (op) {
      case 'echo':
      case 'slow_echo': {
        /** @type {{ token: string, text: string, ms?: number }} */
        const args = { token: this.token, text };
        if (op === 'slow_echo') args.ms = Math.floor(Math.random() * 20);
        message = this.call('tools/call', { name: op, arguments: args });
        check = (r) => this.checkEcho(r.result, text, op);
        break;
      }
      case 'guarded': {
        const decision = pick(/** @type {const} */ (['approve', 'approve', 'decline', 'ignore']));
        this.decisions.set(text, decision);
        if (decision === 'approve') this.approvals.set(text, { sentAt: performance.now() });
        message = this.call('tools/call', {
          name: 'guarded',
          arguments: { token: this.token, text },
        });
        check = (r) => {
          this.decisions.delete(text);
          if (decision === 'approve') {
            const late =
              r.result?.structuredContent?.detail === 'elicitation timed out' &&
              this.approvalMayBeLate(text);
            this.approvals.delete(text);
            if (late) {
              figures.elicitations.late++;
              return;
            }
            figures.elicitations.approved++;
            return this.checkEcho(r.result, text, 'guarded');
          }
          const detail = decision === 'decline' ? 'user declined' : 'elicitation timed out';
          figures.elicitations[decision === 'decline' ? 'declined' : 'timedOut']++;
          const sc = r.result?.structuredContent;
          if (!r.result?.isError || sc?.detail !== detail || sc?.tool !== 'guarded') {
            problem('wrong', `guarded (${decision}): ${JSON.stringify(r)}`);
          }
        };
        break;
      }
      case 'read': {
        const uri = `soak://item/${this.token}-${n}`;
        message = this.call('resources/read', { uri });
        check = (r) => {
          const text0 = r.result?.contents?.[0]?.text;
          if (text0 !== `item ${this.token}-${n}`)
            problem(text0 ? 'crossed' : 'wrong', `read ${uri}: ${JSON.stringify(r)}`);
        };
        break;
      }
      case 'touch': {
        this.touches++;
        const expected = this.touches;
        message = this.call('tools/call', { name: 'touch', arguments: { uri: this.uri } });
        check = async (r) => {
          if (r.result?.content?.[0]?.text !== 'touched')
            problem('wrong', `touch: ${JSON.stringify(r)}`);
          await this.awaitUpdates(expected);
        };
        break;
      }
      default:
        message = this.call('ping');
        check = (r) => {
          if (!r.result || Object.keys(r.result).length !== 0)
            problem('wrong', `ping: ${JSON.stringify(r)}`);
        };
    }
    figures.calls++;
    /** @type {Msg[]} */
    let responses;
    const bound = timeout(CALL_TIMEOUT_MS, `${op} ${message.id}`);
    const sent = performance.now();
    try {
      responses = await Promise.race([this.send(message), bound.promise]);
      const took = performance.now() - sent;
      const latency = figures.latency[this.kind];
      if (op === 'guarded') latency.guarded.push(took);
      else if (op === 'slow_echo') latency.slow.push(took - (message.params?.arguments?.ms ?? 0));
      else latency.fast.push(took);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      problem('lost', `${this.kind} ${this.token} ${op} #${message.id}: ${reason}`);
      return;
    } finally {
      bound.cancel();
    }
    if (responses.length === 0)
      return problem('lost', `${this.token} ${op} #${message.id}: no response`);
    if (responses.length > 1)
      problem('duplicated', `${this.token} ${op} #${message.id}: ${responses.length}`);
    figures.answered++;
    const response = responses[0];
    if (response.id !== message.id)
      return problem('crossed', `${this.token}: id ${response.id} for ${message.id}`);
    await check(response);
    // HTTP connection ids are per session: one seen by two sessions means crossed state.
    if (this.kind === 'http' && this.connId) {
      const owner = seenConnIds.get(this.connId);
      if (owner === undefined) seenConnIds.set(this.connId, this.token);
      else if (owner !== this.token) {
        problem('crossed', `connection ${this.connId} seen by ${owner} and ${this.token}`);
      }
    }
  }

  /**
   * A request with this session's next id.
   * @param {string} method
   * @param {object} [params]
   * @returns {Msg}
   */
  call(method, params) {
    /** @type {Msg} */
    const message = { jsonrpc: '2.0', id: this.nextId++, method };
    if (params !== undefined) message.params = params;
    return message;
  }

  /**
   * Sends a request; resolves with the responses that carry its id.
   * @param {Msg} _message
   * @returns {Promise<Msg[]>}
   */
  send(_message) {
    throw new Error('a transport client implements send()');
  }
}
