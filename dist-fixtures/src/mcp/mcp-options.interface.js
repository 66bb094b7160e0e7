export {};
//# sourceMappingURL=mcp-options.interface.js.map