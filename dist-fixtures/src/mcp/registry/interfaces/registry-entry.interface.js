export {};
//# sourceMappingURL=registry-entry.interface.js.map