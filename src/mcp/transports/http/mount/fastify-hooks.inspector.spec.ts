import { judgeFastifyRoute } from './fastify-hooks.inspector.js';
import type { FastifyHook, FastifyRouteContext } from './fastify-route-context.js';
import { hookSource, type KnownHook } from './nest-fastify.hooks.js';

/*
 * The judge's rules on a table of its own, shaped as Nest 12.6 registers its request hook: one
 * hook reading adapter fields and handing its steps to an adapter method, middie's hook reading
 * its flag, a response hook. (The e2e spec runs the installed Nest against the real table.)
 */

const REQUEST_HOOK =
  '(request, reply, done) => { if (this.onRequestHook) { this.runLifecycleHook(this.onRequestHook, request, reply, done); } else { this.runSteps(request, reply, done); } }';
const STEPS =
  'runSteps(request, reply, done) { if (this.corsHook) { this.corsHook(request, reply, done); return; } done(); }';
const MIDDIE =
  'function runMiddie (req, reply, next) { if (this[kFlag]) { this.run(req, next); } else { next(); } }';
const RESPONSE =
  '(request, reply, done) => { if (this.onResponseHook) { this.onResponseHook(request, reply, done); } else { done(); } }';
const FLAG = 'fastify-middie-has-middlewares';

const TABLE: ReadonlyMap<string, KnownHook> = new Map<string, KnownHook>([
  [REQUEST_HOOK, { fields: ['onRequestHook', 'corsHook'], methods: { runSteps: STEPS } }],
  [MIDDIE, { flag: FLAG }],
  [RESPONSE, { fields: ['onResponseHook'] }],
]);

/* A function whose source is `source`: an arrow or function expression, or a method. */
function fromSource(source: string, method?: string): FastifyHook {
  const made = new Function(`return ${method ? `({ ${source} })` : `(${source})`};`)() as
    FastifyHook | Record<string, FastifyHook>;
  return method ? (made as Record<string, FastifyHook>)[method]! : (made as FastifyHook);
}

interface RouteShape {
  readonly steps?: string;
  readonly requestHook?: string;
  readonly omitField?: string;
}

/** A route whose hooks are the table's: its adapter, Fastify instance and route context. */
function route(shape: RouteShape = {}) {
  const adapter: Record<string, unknown> = {
    onRequestHook: undefined,
    corsHook: undefined,
    onResponseHook: undefined,
    runSteps: fromSource(shape.steps ?? STEPS, 'runSteps'),
  };
  if (shape.omitField) delete adapter[shape.omitField];
  const own = (() => undefined) as FastifyHook;
  const flag = Symbol(FLAG);
  const hooks = {
    onRequest: [fromSource(shape.requestHook ?? REQUEST_HOOK), fromSource(MIDDIE)],
    preParsing: [own],
    onResponse: [fromSource(RESPONSE)],
    onRequestAbort: [],
    onTimeout: [],
  };
  const server = { log: {}, [Symbol('fastify.hooks')]: hooks, [flag]: false } as Record<
    string | symbol,
    unknown
  >;
  const context: FastifyRouteContext = {
    ...hooks,
    onRequestAbort: null,
    onTimeout: null,
    server,
    Request: { prototype: {} },
  };
  const judge = (over: FastifyRouteContext = context) =>
    judgeFastifyRoute(over, adapter, own, TABLE);
  return { adapter, server, flag, context, own, judge };
}

describe('judgeFastifyRoute, on hooks known by their whole source', () => {
  it('the functions built here print as their listed sources', () => {
    expect(hookSource(fromSource(REQUEST_HOOK))).toBe(REQUEST_HOOK);
    expect(hookSource(fromSource(STEPS, 'runSteps'))).toBe(STEPS);
  });

  it('known hooks and their step method: fast while every field and flag read is unset', () => {
    const { adapter, server, flag, judge } = route();
    const verdict = judge();
    expect(verdict.fast).toBe(true);
    if (!verdict.fast) return;
    expect(verdict.inert()).toBe(true);
    for (const field of ['onRequestHook', 'corsHook', 'onResponseHook']) {
      adapter[field] = () => undefined;
      expect(verdict.inert()).toBe(false);
      adapter[field] = undefined;
    }
    server[flag] = true;
    expect(verdict.inert()).toBe(false);
  });

  it.each([
    {
      case: 'a step method that differs from its listed source',
      shape: { steps: STEPS.replace('done(); }', 'this.log?.(request); done(); }') },
    },
    {
      case: 'a listed hook with one statement more',
      shape: { requestHook: REQUEST_HOOK.replace('} else {', '} else { request.seen = true;') },
    },
  ])('$case is not known: the route stays on Fastify', ({ shape }) => {
    expect(route(shape).judge()).toEqual({
      fast: false,
      reason: 'an onRequest hook runs in front (anonymous)',
    });
  });

  it('an adapter without a listed method or field keeps the route on Fastify', () => {
    const noMethod = route();
    delete noMethod.adapter.runSteps;
    expect(noMethod.judge().fast).toBe(false);
    expect(route({ omitField: 'corsHook' }).judge().fast).toBe(false);
  });

  it("a route's own hook (more in its context than registered) keeps it on Fastify", () => {
    const { context, own, judge } = route();
    expect(judge({ ...context, onResponse: [...context.onResponse!, own] })).toEqual({
      fast: false,
      reason: 'the route has onResponse hooks of its own',
    });
  });
});
