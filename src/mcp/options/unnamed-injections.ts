import type { McpServerModule } from '../core/servers/mcp-server-scope.service.js';
import { PER_HTTP_SERVER_EXPORTS, PER_SERVER_EXPORTS } from './per-server-exports.js';

const PER_SERVER = new Set<unknown>([...PER_SERVER_EXPORTS, ...PER_HTTP_SERVER_EXPORTS]);

interface Wrapper {
  readonly metatype?: unknown;
  readonly inject?: readonly unknown[] | null;
  readonly name?: unknown;
}

interface Host {
  readonly providers: Map<unknown, Wrapper>;
  readonly controllers: Map<unknown, Wrapper>;
  readonly injectables: Map<unknown, Wrapper>;
}

/**
 * The app's classes and factories that inject one of a server's class
 * tokens (`McpWarden`, `McpRegistry`, …) outside the server modules. With
 * several servers, Nest would hand each whichever server it met first, so
 * the boot names them instead (`McpServerSetCheck`).
 */
export function unnamedInjections(
  servers: readonly McpServerModule[],
  modules: Iterable<object>,
): string[] {
  const ours = new Set<object>(servers.map((server) => server.module));
  const found: string[] = [];
  for (const module of modules) {
    if (ours.has(module)) continue;
    for (const wrapper of wrappersOf(module as Host)) {
      const token = injected(wrapper).find((dependency) => PER_SERVER.has(dependency));
      if (token) found.push(`${nameOf(wrapper)} injects ${nameOf({ name: token })}`);
    }
  }
  return [...new Set(found)];
}

function* wrappersOf(module: Host): Generator<Wrapper> {
  yield* module.providers.values();
  yield* module.controllers.values();
  yield* module.injectables.values();
}

/* The tokens Nest will resolve for a wrapper: a factory's `inject`, a class's parameters and properties. */
function injected(wrapper: Wrapper): unknown[] {
  if (wrapper.inject) {
    return wrapper.inject.map((entry) => unwrapped((entry as { token?: unknown })?.token ?? entry));
  }
  const type = wrapper.metatype;
  if (typeof type !== 'function') return [];
  const params: unknown[] = [...(Reflect.getMetadata('design:paramtypes', type) ?? [])];
  for (const { index, param } of Reflect.getMetadata('self:paramtypes', type) ?? []) {
    params[index] = param;
  }
  const properties = (Reflect.getMetadata('self:properties_metadata', type) ?? []) as {
    type: unknown;
  }[];
  return [...params, ...properties.map((property) => property.type)].map(unwrapped);
}

/* `@Inject(forwardRef(() => McpWarden))` resolves to the class it points to. */
function unwrapped(token: unknown): unknown {
  const forward = (token as { forwardRef?: () => unknown } | null)?.forwardRef;
  return typeof forward === 'function' ? forward() : token;
}

function nameOf(wrapper: Wrapper): string {
  const { name } = wrapper;
  if (typeof name === 'function') return (name as { name: string }).name;
  if (typeof name === 'string') return name;
  return typeof wrapper.metatype === 'function' ? wrapper.metatype.name : String(name);
}
