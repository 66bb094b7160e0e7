import { Module } from '@nestjs/common';
import { Authorizers, McpModule, type McpModuleOptions } from 'mcp-warden';
import { AddTools } from './add.tools.js';

/** The options both the served app and the testing module use. */
export const MCP_OPTIONS: McpModuleOptions = {
  name: 'pack-check',
  version: '1.0.0',
  transport: 'http',
  authorizer: Authorizers.allowAll(),
  authorizerSource: 'configured',
  readAuthorizer: Authorizers.allowAll(),
};

@Module({ imports: [McpModule.forRoot(MCP_OPTIONS)], providers: [AddTools] })
export class AppModule {}
