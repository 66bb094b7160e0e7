export {};
//# sourceMappingURL=resource.interface.js.map