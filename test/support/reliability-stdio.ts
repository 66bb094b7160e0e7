// The stdio script child lives with the other stdio helpers; this path is kept for its importers.
export { StdioScript } from './stdio-child.js';
