export {};
//# sourceMappingURL=tool.interface.js.map