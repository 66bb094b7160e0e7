import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, MetadataScanner, Reflector } from '@nestjs/core';
import type { z } from 'zod';
import { MCP_CONTEXT_TYPE, MCP_METHOD_METADATA } from '../../mcp.constants.js';
import type { McpMethodMetadata } from './mcp-method.decorator.js';
import type { McpRequest } from './mcp-request.interface.js';

/** A request method's handler, wrapped once with its guards and interceptors. */
export interface McpRoute {
  readonly params?: z.ZodType;
  readonly invoke: (request: McpRequest) => Promise<unknown>;
}

/**
 * Builds the method table from `@McpMethod()` handlers at init. Each handler
 * is wrapped by `ExternalContextCreator` with context type `'mcp'`, which is
 * what runs the seam guards applied by `@ToolSeam()` / `@ReadSeam()`.
 */
@Injectable()
export class McpMethodExplorer implements OnModuleInit {
  private readonly table = new Map<string, McpRoute>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly contextCreator: ExternalContextCreator,
  ) {}

  onModuleInit(): void {
    for (const { instance } of this.discovery.getProviders()) {
      if (!instance || typeof instance !== 'object') continue;
      const proto = Object.getPrototypeOf(instance);
      if (!proto) continue;
      for (const name of this.scanner.getAllMethodNames(proto)) {
        const target = (instance as Record<string, (...args: unknown[]) => unknown>)[name];
        const meta = this.reflector.get<McpMethodMetadata | undefined>(MCP_METHOD_METADATA, target);
        if (!meta) continue;
        const invoke = this.contextCreator.create(
          instance,
          target,
          name,
          undefined,
          undefined,
          undefined,
          undefined,
          { guards: true, interceptors: true, filters: false },
          MCP_CONTEXT_TYPE,
        );
        this.table.set(meta.method, { params: meta.params, invoke });
      }
    }
  }

  route(method: string): McpRoute | undefined {
    return this.table.get(method);
  }
}
