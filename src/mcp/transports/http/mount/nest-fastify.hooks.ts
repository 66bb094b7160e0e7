/**
 * The hooks Nest's Fastify adapter (12.5, 12.6) and middie (9.x) put in front of every route, each
 * with what makes it act: an adapter field, or middie's flag on its instance. Unset, the hook
 * only calls `done()`. A hook is known only by its whole source (comments dropped, white space
 * collapsed): one another version changed, or a hook of the app's that merely resembles one,
 * is unknown, and an unknown hook keeps the route on Fastify. Another Nest therefore serves
 * every MCP request through Fastify until its hooks are listed here;
 * test/nest/fastify-fast-path.e2e-spec.ts fails when the installed Nest's hooks change.
 */
export const KNOWN_HOOKS: ReadonlyMap<string, KnownHook> = new Map([
  [
    '(request, reply, done) => { if (this.onRequestHook) { this.runLifecycleHook(this.onRequestHook, request, reply, done); } else { done(); } }',
    { fields: ['onRequestHook'] },
  ],
  [
    "(request, reply, done) => { if (this.return503OnClosing && this.isShuttingDown) { if (request.raw.httpVersionMajor !== 2) { reply.header('Connection', 'close'); } reply.code(503).send({ error: 'Service Unavailable', message: 'Service Unavailable', statusCode: 503, }); } else { done(); } }",
    { fields: ['isShuttingDown'] },
  ],
  [
    '(request, reply, done) => { if (!this.corsHook) { return done(); } this.corsHook(request, reply, (err) => { this.copyCorsHeadersToRaw(reply); done(err); }); }',
    { fields: ['corsHook'] },
  ],
  [
    '(request, reply, done) => { if (this.securityHook) { done(this.securityHook(request, reply.raw)); } else { done(); } }',
    { fields: ['securityHook'] },
  ],
  // Not-found for a target middleware cannot match: a fast request's path is a route's own.
  [
    '(request, reply, done) => { if (request.is404 || this.isRoutableRequestTarget(request.raw.url)) { done(); } else { reply.callNotFound(); } }',
    {},
  ],
  // Errors of custom versioning, raised while Fastify routes: a fast request is not routed.
  [
    '(request, _reply, done) => { if (!this.versionExtractorErrors.has(request.raw)) { done(); return; } const err = this.versionExtractorErrors.get(request.raw); this.versionExtractorErrors.delete(request.raw); done(err || new fastify.errorCodes.FST_ERR_SEND_UNDEFINED_ERR()); }',
    {},
  ],
  // Nest 12.6: one request hook, its steps in two adapter methods (pinned by source too).
  [
    '(request, reply, done) => { if (this.onRequestHook) { this.runLifecycleHook(this.onRequestHook, request, reply, (err) => { if (err) { done(err); } else if (!reply.sent) { this.runRequestSteps(request, reply, done); } }); } else { this.runRequestSteps(request, reply, done); } }',
    {
      fields: ['onRequestHook', 'isShuttingDown', 'corsHook', 'securityHook'],
      methods: {
        runRequestSteps:
          "runRequestSteps(request, reply, done) { if (this.return503OnClosing && this.isShuttingDown) { try { if (request.raw.httpVersionMajor !== 2) { reply.header('Connection', 'close'); } reply.code(503).send({ error: 'Service Unavailable', message: 'Service Unavailable', statusCode: 503, }); } catch (err) { done(err); } return; } if (this.corsHook) { try { this.corsHook(request, reply, (err) => { this.copyCorsHeadersToRaw(reply); if (err) { done(err); } else if (!reply.sent) { this.runLateRequestSteps(request, reply, done); } }); } catch (err) { done(err); } return; } this.runLateRequestSteps(request, reply, done); }",
        runLateRequestSteps:
          'runLateRequestSteps(request, reply, done) { let error; try { if (this.securityHook) { error = this.securityHook(request, reply.raw); if (error || reply.sent) { return done(error); } } if (!request.is404 && !this.isRoutableRequestTarget(request.raw.url)) { reply.callNotFound(); return; } if (this.versionExtractorErrors.has(request.raw)) { const err = this.versionExtractorErrors.get(request.raw); this.versionExtractorErrors.delete(request.raw); error = err || new fastify.errorCodes.FST_ERR_SEND_UNDEFINED_ERR(); } } catch (err) { error = err; } done(error); }',
      },
    },
  ],
  [
    'function runMiddie (req, reply, next) { if (this[kMiddieHasMiddlewares]) { req.raw.originalUrl = req.raw.url req.raw.id = req.id req.raw.hostname = req.hostname req.raw.protocol = req.protocol req.raw.ip = req.ip req.raw.ips = req.ips req.raw.log = req.log req.raw.query = req.query reply.raw.log = req.log if (req.body !== undefined) req.raw.body = req.body this[kMiddie].run(req.raw, reply.raw, next) } else { next() } }',
    { flag: 'fastify-middie-has-middlewares' },
  ],
  [
    '(request, reply, done) => { if (this.onResponseHook) { this.runLifecycleHook(this.onResponseHook, request, reply, done); } else { done(); } }',
    { fields: ['onResponseHook'] },
  ],
]);

/**
 * What makes a known hook act: adapter fields, or a flag (by description) on its instance. A
 * hook that calls adapter methods names them with their sources, which must match too.
 */
export interface KnownHook {
  readonly fields?: readonly string[];
  readonly flag?: string;
  readonly methods?: Readonly<Record<string, string>>;
}

/** A hook's source as KNOWN_HOOKS keys it. */
export function hookSource(hook: (...args: never[]) => unknown): string {
  return Function.prototype.toString
    .call(hook)
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
