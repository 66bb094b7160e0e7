import { judgeFastifyRoute } from './fastify-hooks.inspector.js';
import type { FastifyHook, FastifyRouteContext } from './fastify-route-context.js';
import { KNOWN_HOOKS } from './nest-fastify.hooks.js';

/*
 * The judge over hooks built from their sources, as another Nest than the installed one registers
 * them (the e2e spec runs the installed Nest 12.5; Nest 12.6 moved its request steps into two
 * adapter methods). Each function's own source is the listed text, as V8 prints it.
 */

const sourceOf = (hook: string) =>
  [...KNOWN_HOOKS.entries()].find(([source]) => source.includes(hook))!;

/* A function whose source is `source` (an arrow, a function or a method, as listed). */
function fromSource(source: string, method?: string): FastifyHook {
  const make = new Function(`return ${method ? `({ ${source} })` : `(${source})`};`) as () => {
    [name: string]: FastifyHook;
  };
  const made = make() as unknown as FastifyHook & Record<string, FastifyHook>;
  return method ? made[method]! : made;
}

const NEST_12_6_HOOK = sourceOf('this.runRequestSteps(');
const MIDDIE = sourceOf('function runMiddie');
const RESPONSE = sourceOf('this.onResponseHook');
const MIDDIE_FLAG = Symbol('fastify-middie-has-middlewares');

/** A Nest 12.6 app's route: its adapter, Fastify instance and route context. */
function nest126Route(options: { lateSteps?: string; extraHook?: FastifyHook } = {}) {
  const { methods } = NEST_12_6_HOOK[1];
  const adapter: Record<string, unknown> = {
    onRequestHook: undefined,
    isShuttingDown: false,
    corsHook: undefined,
    securityHook: undefined,
    onResponseHook: undefined,
    runRequestSteps: fromSource(methods!.runRequestSteps!, 'runRequestSteps'),
    runLateRequestSteps: fromSource(
      options.lateSteps ?? methods!.runLateRequestSteps!,
      'runLateRequestSteps',
    ),
  };
  const own = (() => undefined) as FastifyHook;
  // Middie has no semicolons: its listed source parses again with its line breaks back.
  const onRequest = [fromSource(NEST_12_6_HOOK[0]), fromSource(MIDDIE[0].replaceAll(' ', '\n'))];
  if (options.extraHook) onRequest.push(options.extraHook);
  const hooks = {
    onRequest,
    preParsing: [own],
    onResponse: [fromSource(RESPONSE[0])],
    onRequestAbort: [],
    onTimeout: [],
  };
  const server = { log: {}, [Symbol('fastify.hooks')]: hooks, [MIDDIE_FLAG]: false };
  const context: FastifyRouteContext = {
    ...hooks,
    onRequestAbort: null,
    onTimeout: null,
    server,
    Request: { prototype: {} },
  };
  return { adapter, own, context, server };
}

describe('judgeFastifyRoute, on hooks known by their source', () => {
  it("Nest 12.6's request hook with its two steps: fast while the fields it reads are unset", () => {
    const { adapter, own, context, server } = nest126Route();
    const verdict = judgeFastifyRoute(context, adapter, own);
    expect(verdict.fast).toBe(true);
    if (!verdict.fast) return;
    expect(verdict.inert()).toBe(true);
    for (const field of ['corsHook', 'securityHook', 'onRequestHook', 'onResponseHook']) {
      adapter[field] = () => undefined;
      expect(verdict.inert()).toBe(false);
      adapter[field] = undefined;
    }
    adapter.isShuttingDown = true;
    expect(verdict.inert()).toBe(false);
    adapter.isShuttingDown = false;
    (server as Record<symbol, unknown>)[MIDDIE_FLAG] = true;
    expect(verdict.inert()).toBe(false);
  });

  it('the same hook whose step method differs from the listed source keeps the route on Fastify', () => {
    const { methods } = NEST_12_6_HOOK[1];
    const lateSteps = methods!.runLateRequestSteps!.replace(
      'let error;',
      'let error; this.extra?.(request);',
    );
    const { adapter, own, context } = nest126Route({ lateSteps });
    expect(judgeFastifyRoute(context, adapter, own)).toEqual({
      fast: false,
      reason: 'an onRequest hook runs in front (anonymous)',
    });
  });

  it("a hook of the app's, however alike, keeps the route on Fastify", () => {
    const lookalike = fromSource(
      "(request, reply, done) => { if (!this.corsHook) { return done(); } done(); request.log('x'); }",
    );
    const { adapter, own, context } = nest126Route({ extraHook: lookalike });
    expect(judgeFastifyRoute(context, adapter, own).fast).toBe(false);
  });

  it("a route's own hook (more in its context than the instance registered) keeps it on Fastify", () => {
    const { adapter, own, context } = nest126Route();
    const routeHooks = { ...context, onResponse: [...context.onResponse!, own] };
    expect(judgeFastifyRoute(routeHooks, adapter, own)).toEqual({
      fast: false,
      reason: 'the route has onResponse hooks of its own',
    });
  });
});
