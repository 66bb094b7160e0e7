export {};
//# sourceMappingURL=prompt.interface.js.map