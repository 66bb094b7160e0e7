import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpModuleOptions } from './options/mcp-options.interface.js';

/**
 * `forRoot` / `forRootAsync` come from Nest's builder. The module is global by
 * default (`isGlobal: false` makes it an ordinary import); its raw options
 * token reads `MCP_WARDEN_MODULE_OPTIONS` in DI errors.
 */
export const {
  ConfigurableModuleClass: McpConfigurableModuleClass,
  MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpModuleOptions>({ moduleName: 'McpWarden' })
  .setClassMethodName('forRoot')
  .setExtras({ isGlobal: true }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
  }))
  .build();
