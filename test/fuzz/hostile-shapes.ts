/*
 * Hostile shapes for the fuzz suite, one concern per file under shapes/: the
 * reference model of the argument bounds, the hostile values and envelopes,
 * the tools they are sent to, the duplicate-id cases, the expected replies,
 * and the stall meter.
 */
export * from './shapes/shape-model.js';
export * from './shapes/hostile-values.js';
export * from './shapes/hostile-tools.js';
export * from './shapes/duplicate-ids.js';
export * from './shapes/replies.js';
export * from './shapes/stall-meter.js';
