import { ConfigurableModuleBuilder } from '@nestjs/common';
/**
 * `forRoot` / `forRootAsync` come from Nest's builder; the module is global so
 * any feature module can inject `McpServer` and `McpRegistry`.
 */
export const { ConfigurableModuleClass: McpConfigurableModuleClass, MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS, OPTIONS_TYPE: MCP_OPTIONS_TYPE, ASYNC_OPTIONS_TYPE: MCP_ASYNC_OPTIONS_TYPE, } = new ConfigurableModuleBuilder()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
}))
    .build();
//# sourceMappingURL=mcp.module-definition.js.map