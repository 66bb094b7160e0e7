export {};
//# sourceMappingURL=mcp-context.interface.js.map