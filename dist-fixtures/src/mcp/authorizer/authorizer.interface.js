export {};
//# sourceMappingURL=authorizer.interface.js.map