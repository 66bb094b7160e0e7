export {};
//# sourceMappingURL=mcp-audit-event.interface.js.map