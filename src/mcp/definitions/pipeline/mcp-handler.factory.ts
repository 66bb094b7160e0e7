import type { ProviderMethod } from '../discovery/provider-method.interface.js';
import type { McpCompleterBinder } from '../completer.resolver.js';
import type { McpCompleter } from '../interfaces/mcp-context.interface.js';
import { McpDefinitionError } from '../registry.errors.js';
import { createInvocation, type McpInvocation, type McpPipedArgument } from './handler-pipeline.js';
import type { McpRequestScope } from './mcp-request-scope.js';
import type { McpHandlerMethod, NestEnhancersResolver } from './nest-enhancers.resolver.js';

/** What a user handler is, for messages and for its pipes. */
export interface McpHandlerSpec {
  /** `'tool'`, `'resource'`, `'resource template'` or `'prompt'`. */
  readonly kind: string;
  /** `Provider.method`, for messages. */
  readonly source: string;
  /** The argument the pipes transform, if any. */
  readonly piped?: McpPipedArgument;
}

/** A user handler as the registry calls it: its own arguments, the MCP context last. */
export type McpUserHandler = (...args: unknown[]) => unknown;

/**
 * Turns a decorated provider method into the handler the registry stores,
 * with the app's global enhancers and the method's own. A singleton's
 * enhancers are resolved on its first call (so `app.useGlobal*()` after
 * `init()` still counts); a request-scoped or request-dependent provider is
 * built per call, and so are its enhancers.
 */
export class McpHandlerFactory {
  constructor(
    private readonly enhancers: NestEnhancersResolver,
    private readonly scope: McpRequestScope,
  ) {}

  /** Throws `McpDefinitionError` naming `Provider.method` for a scope MCP cannot serve. */
  create(found: ProviderMethod, spec: McpHandlerSpec): McpUserHandler {
    assertServableScope(found, spec);
    if (!found.wrapper.isDependencyTreeStatic()) {
      const perRequest = this.perRequest(found, spec);
      return (...args) => perRequest(args);
    }
    let invocation: McpInvocation | undefined;
    return (...args) => (invocation ??= this.singleton(found, spec))(args);
  }

  /**
   * Binds completers named by method: to the singleton, or (for a
   * request-scoped provider) to an instance built per completion, whose
   * `REQUEST` is the completion context `{ arguments }`.
   */
  completerBinder({ wrapper, instance }: ProviderMethod): McpCompleterBinder {
    const methods = instance as Record<string, unknown>;
    const isStatic = wrapper.isDependencyTreeStatic();
    return (name) => {
      const method = methods[name];
      if (typeof method !== 'function') return undefined;
      if (isStatic) return method.bind(instance) as McpCompleter;
      return async (value, context) => {
        const scoped = await this.scope.resolve(wrapper, context);
        return (scoped.instance[name] as McpCompleter).call(scoped.instance, value, context);
      };
    };
  }

  private singleton(found: ProviderMethod, spec: McpHandlerSpec): McpInvocation {
    // A request-scoped global enhancer exists only per request: so must this call, then.
    if (this.enhancers.hasRequestScopedGlobals()) return this.perRequest(found, spec);
    const { instance, target } = found;
    const enhancers = this.enhancers.enhancersOf(instance, target, moduleKeyOf(found));
    return createInvocation(instance, target, enhancers, spec.piped);
  }

  private perRequest(found: ProviderMethod, spec: McpHandlerSpec): McpInvocation {
    const { wrapper, method } = found;
    const moduleKey = moduleKeyOf(found);
    return async (args) => {
      const { instance, contextId } = await this.scope.resolve(wrapper, args[args.length - 1]!);
      const target = instance[method] as McpHandlerMethod;
      const enhancers = this.enhancers.enhancersOf(
        instance,
        target,
        moduleKey,
        contextId,
        wrapper.id,
      );
      return createInvocation(instance, target, enhancers, spec.piped)(args);
    };
  }
}

function moduleKeyOf({ wrapper }: ProviderMethod): string {
  return wrapper.host?.token ?? '';
}

/*
 * Singleton and request-scoped (or request-dependent) providers are served.
 * A transient provider has no instance of its own to call, and a durable tree
 * would need a context-id strategy keyed on something an MCP request does not
 * carry: refusing to boot beats serving them in a way nobody asked for.
 */
function assertServableScope({ wrapper }: ProviderMethod, { kind, source }: McpHandlerSpec) {
  const name = String(wrapper.name ?? source.split('.')[0]);
  if (wrapper.isTransient) {
    throw new McpDefinitionError(
      kind,
      source,
      `${name} is a transient provider; MCP handlers must be on a singleton or request-scoped provider`,
    );
  }
  if (!wrapper.isDependencyTreeStatic() && wrapper.isDependencyTreeDurable()) {
    throw new McpDefinitionError(
      kind,
      source,
      `${name} is in a durable dependency tree; MCP handlers support singleton and ` +
        'request-scoped providers, not durable ones',
    );
  }
}
