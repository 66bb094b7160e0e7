/** DI token of the instance's cluster bus (null without `cluster`). */
export const MCP_CLUSTER_BUS = 'McpWarden:clusterBus';
/** DI token of the Redis session directory (null without `cluster`, or without HTTP). */
export const MCP_CLUSTER_DIRECTORY = 'McpWarden:clusterDirectory';
