/*
 * Nest's check that a request target is one middleware can match against, and its helper: the
 * 12.5 hook calls them, and so does 12.6's request step.
 */
const ROUTING_METHODS: Readonly<Record<string, string>> = {
  isRoutableRequestTarget:
    'isRoutableRequestTarget(url) { return !!url && this.getPathFromRequestTarget(url).charCodeAt(0) === 47; }',
  getPathFromRequestTarget:
    "getPathFromRequestTarget(url) { if (url.charCodeAt(0) === 47 /* '/' */) { return url; } const schemeEnd = url.indexOf('://'); if (schemeEnd === -1) { return url; } const scheme = url.slice(0, schemeEnd).toLowerCase(); if (scheme !== 'http' && scheme !== 'https') { return url; } const authorityStart = schemeEnd + 3; const pathStart = url.indexOf('/', authorityStart); if (pathStart === authorityStart || !URL.canParse(url)) { // Malformed target: the router rejects it before any middleware runs return url; } const queryStart = url.indexOf('?', authorityStart); if (queryStart !== -1 && (pathStart === -1 || queryStart < pathStart)) { // The query ends the authority, so a \"/\" in it does not start the path // (\"http://host?a/users\" -> \"/?a/users\"). \"find-my-way\" < 9.9.0, which // the router of a Fastify instance passed to the adapter may still be, // routes such a target as \"/users\". It is left untouched, so that it // is answered by the not-found handler (see `isRoutableRequestTarget()`). return pathStart === -1 ? `/${url.slice(queryStart)}` : url; } return pathStart === -1 ? '/' : url.slice(pathStart); }",
};

/**
 * The hooks Nest's Fastify adapter (12.5, 12.6) and middie (9.x) put in front of every route, each
 * with what makes it act: adapter fields, or middie's flag on its instance. Unset, the hook only
 * calls `done()`. A hook is known only by its whole source (white space collapsed), and so is
 * every adapter method it calls on a request whose fields are unset: one another version
 * changed, an app's subclass overrides, or a hook of the app's that merely resembles one is
 * unknown, and an unknown hook keeps the route on Fastify. Another Nest therefore serves every
 * MCP request through Fastify until its hooks are listed here. The e2e spec
 * (test/nest/fastify-fast-path.e2e-spec.ts) fails when the installed Nest's hooks change; the
 * other versions' entries are checked by hand against an install of that version.
 */
export const KNOWN_HOOKS: ReadonlyMap<string, KnownHook> = new Map<string, KnownHook>([
  [
    '(request, reply, done) => { if (this.onRequestHook) { this.runLifecycleHook(this.onRequestHook, request, reply, done); } else { done(); } }',
    { fields: ['onRequestHook'] },
  ],
  // The 503 while Nest shuts down (`return503OnClosing`).
  [
    "(request, reply, done) => { if (this.return503OnClosing && this.isShuttingDown) { if (request.raw.httpVersionMajor !== 2) { reply.header('Connection', 'close'); } reply.code(503).send({ error: 'Service Unavailable', message: 'Service Unavailable', statusCode: 503, }); } else { done(); } }",
    { fields: ['isShuttingDown'] },
  ],
  [
    '(request, reply, done) => { if (!this.corsHook) { return done(); } this.corsHook(request, reply, (err) => { this.copyCorsHeadersToRaw(reply); done(err); }); }',
    { fields: ['corsHook'] },
  ],
  // `enableCsrfProtection()` and `useSecurityHeaders()`.
  [
    '(request, reply, done) => { if (this.securityHook) { done(this.securityHook(request, reply.raw)); } else { done(); } }',
    { fields: ['securityHook'] },
  ],
  // Not-found for a target middleware cannot match: a fast request's path is a route's own.
  [
    '(request, reply, done) => { if (request.is404 || this.isRoutableRequestTarget(request.raw.url)) { done(); } else { reply.callNotFound(); } }',
    { methods: ROUTING_METHODS },
  ],
  // Errors of custom versioning, raised while Fastify routes: a fast request is not routed.
  [
    '(request, _reply, done) => { if (!this.versionExtractorErrors.has(request.raw)) { done(); return; } const err = this.versionExtractorErrors.get(request.raw); this.versionExtractorErrors.delete(request.raw); done(err || new fastify.errorCodes.FST_ERR_SEND_UNDEFINED_ERR()); }',
    {},
  ],
  // Nest 12.6: one request hook, its steps in adapter methods (pinned by source too).
  [
    '(request, reply, done) => { if (this.onRequestHook) { this.runLifecycleHook(this.onRequestHook, request, reply, (err) => { if (err) { done(err); } else if (!reply.sent) { this.runRequestSteps(request, reply, done); } }); } else { this.runRequestSteps(request, reply, done); } }',
    {
      fields: ['onRequestHook', 'isShuttingDown', 'corsHook', 'securityHook'],
      methods: {
        runRequestSteps:
          "runRequestSteps(request, reply, done) { // Fastify's own `return503OnClosing` only applies once `close()` runs, // which is after the shutdown hooks. Answers with the same body as // Fastify's own 503, so that clients get one response shape for the // whole shutdown. if (this.return503OnClosing && this.isShuttingDown) { try { if (request.raw.httpVersionMajor !== 2) { reply.header('Connection', 'close'); } reply.code(503).send({ error: 'Service Unavailable', message: 'Service Unavailable', statusCode: 503, }); } catch (err) { done(err); } return; } // The request hook of `app.enableCors()` (see `enableCors()`). Before the // security hook, so that its responses carry the CORS headers too, and a // preflight is answered before middleware, as on Express. if (this.corsHook) { try { this.corsHook(request, reply, (err) => { this.copyCorsHeadersToRaw(reply); if (err) { done(err); } else if (!reply.sent) { this.runLateRequestSteps(request, reply, done); } }); } catch (err) { done(err); } return; } this.runLateRequestSteps(request, reply, done); }",
        runLateRequestSteps:
          'runLateRequestSteps(request, reply, done) { let error; try { // The request hook of `app.enableCsrfProtection()` and // `app.useSecurityHeaders()` (see `registerSecurityHook()`). After the // `503` step, as on Express. if (this.securityHook) { error = this.securityHook(request, reply.raw); if (error || reply.sent) { return done(error); } } // Passes requests whose target middleware cannot be matched against to // the not-found handler (see `isRoutableRequestTarget()`), after the // security hook so that the `404` carries its headers, as on Express. // A request the router did not match is already on its way to the // not-found handler. if (!request.is404 && !this.isRoutableRequestTarget(request.raw.url)) { reply.callNotFound(); return; } // Passes an exception thrown by the extractor of custom versioning while // Fastify routed the request (see `versionConstraint`) to the error // handler, for matched and unmatched routes alike. if (this.versionExtractorErrors.has(request.raw)) { const err = this.versionExtractorErrors.get(request.raw); this.versionExtractorErrors.delete(request.raw); error = err || new fastify.errorCodes.FST_ERR_SEND_UNDEFINED_ERR(); } } catch (err) { error = err; } done(error); }',
        ...ROUTING_METHODS,
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
 * What makes a known hook act: adapter fields, or a flag (by description) on its instance. The
 * adapter methods it calls are listed with their sources, which must match too.
 */
export interface KnownHook {
  readonly fields?: readonly string[];
  readonly flag?: string;
  readonly methods?: Readonly<Record<string, string>>;
}

/* A function's source as KNOWN_HOOKS keys it: comments kept (a `//` may sit in a string). */
export function hookSource(hook: (...args: never[]) => unknown): string {
  return Function.prototype.toString.call(hook).replace(/\s+/g, ' ').trim();
}
