export {};
//# sourceMappingURL=mcp-types.js.map