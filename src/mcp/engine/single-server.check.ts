import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { McpWarden } from './mcp-warden.service.js';

/**
 * One MCP server per application: a second `McpModule.forRoot()` would build
 * a second server over the same discovered tools, and which one a feature
 * module gets would depend on import order. Boot fails instead, naming the
 * modules that imported it.
 */
@Injectable()
export class McpSingleServerCheck implements OnModuleInit {
  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const servers = this.discovery.getProviders().filter((w) => w.metatype === McpWarden);
    if (servers.length <= 1) return;
    throw new Error(
      `McpModule.forRoot() is imported ${servers.length} times; an application ` +
        'serves one MCP server: import McpModule.forRoot() once (it is global) and inject ' +
        'McpWarden or McpRegistry where needed',
    );
  }
}
