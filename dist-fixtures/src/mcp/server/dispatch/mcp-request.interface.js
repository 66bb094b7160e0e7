export {};
//# sourceMappingURL=mcp-request.interface.js.map