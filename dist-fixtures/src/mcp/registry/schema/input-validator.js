export {};
//# sourceMappingURL=input-validator.js.map