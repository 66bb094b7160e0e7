import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpModuleOptions } from './options/mcp-options.interface.js';

/**
 * `forRoot` / `forRootAsync` come from Nest's builder. The module is global by
 * default (`isGlobal: false` makes it an ordinary import); its raw options
 * token reads `MCP_WARDEN_MODULE_OPTIONS` in DI errors.
 */
const built = new ConfigurableModuleBuilder<McpModuleOptions>({ moduleName: 'McpWarden' })
  .setClassMethodName('forRoot')
  .setExtras({ isGlobal: true }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
  }))
  .build();

export const McpConfigurableModuleClass = built.ConfigurableModuleClass;
/**
 * DI token of the options exactly as `forRoot` / `forRootAsync` received them (the
 * framework injects them resolved, with every default applied).
 * @publicApi
 */
export const MCP_MODULE_OPTIONS = built.MODULE_OPTIONS_TOKEN;
export const MCP_OPTIONS_TYPE = built.OPTIONS_TYPE;
export const MCP_ASYNC_OPTIONS_TYPE = built.ASYNC_OPTIONS_TYPE;
