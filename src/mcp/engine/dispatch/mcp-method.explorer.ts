import { Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ProviderMethodScanner,
  type ProviderMethod,
} from '../../definitions/discovery/provider-method.scanner.js';
import { MCP_METHOD_METADATA } from '../../core/mcp.constants.js';
import { McpExecutionContext } from '../../definitions/pipeline/mcp-execution-context.js';
import { runGuards } from '../../definitions/pipeline/run-guards.js';
import type { McpMethodMetadata, McpParamsSchema } from './mcp-method.decorator.js';
import type { McpRequest } from './mcp-request.interface.js';

/** A request method's handler, behind its own guards. */
export interface McpRoute {
  readonly params?: McpParamsSchema;
  /** The handler's value, or a promise of it; a guard's refusal throws (or rejects). */
  readonly invoke: (request: McpRequest) => unknown;
}

/**
 * Builds the method table from `@McpMethod()` handlers at init. A handler
 * runs behind its own guards only, the seams applied by `@ToolSeam()` /
 * `@ReadSeam()`, with an `ExecutionContext` of type `'mcp'`: the app's global
 * guards, interceptors, pipes and filters are written for its own routes and
 * tools, and must neither refuse `initialize` nor reshape protocol results.
 * The call stays synchronous while the guards are.
 */
@Injectable()
export class McpMethodExplorer implements OnModuleInit {
  private readonly table = new Map<string, McpRoute>();

  constructor(
    private readonly scanner: ProviderMethodScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    for (const found of this.scanner.ownMethods()) {
      const meta = this.reflector.get<McpMethodMetadata | undefined>(
        MCP_METHOD_METADATA,
        found.target,
      );
      if (meta) this.table.set(meta.method, { params: meta.params, invoke: this.guarded(found) });
    }
  }

  route(method: string): McpRoute | undefined {
    return this.table.get(method);
  }

  private guarded(found: ProviderMethod): McpRoute['invoke'] {
    const { instance, target } = found;
    const guards = this.scanner.ownGuards(found);
    if (guards.length === 0) return (request) => target.call(instance, request);
    const classRef = instance.constructor as Type;
    return (request) => {
      const passed = runGuards(guards, new McpExecutionContext([request], classRef, target));
      return passed === true
        ? target.call(instance, request)
        : passed.then(() => target.call(instance, request));
    };
  }
}
