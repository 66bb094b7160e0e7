import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { z } from 'zod';
import { ProviderMethodScanner } from '../../discovery/provider-method.scanner.js';
import { MCP_METHOD_METADATA } from '../../mcp.constants.js';
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
    private readonly scanner: ProviderMethodScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    for (const found of this.scanner.methods()) {
      const meta = this.reflector.get<McpMethodMetadata | undefined>(
        MCP_METHOD_METADATA,
        found.target,
      );
      if (meta)
        this.table.set(meta.method, { params: meta.params, invoke: this.scanner.wrap(found) });
    }
  }

  route(method: string): McpRoute | undefined {
    return this.table.get(method);
  }
}
