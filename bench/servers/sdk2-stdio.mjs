// The official SDK 2.x server over stdio (StdioServerTransport), exposing `echo`.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { buildSdk2Server } from './sdk2-app.mjs';

await buildSdk2Server().connect(new StdioServerTransport());
