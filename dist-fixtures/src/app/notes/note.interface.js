export {};
//# sourceMappingURL=note.interface.js.map