// The official SDK 1.x server over stdio (StdioServerTransport), exposing `echo`.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildSdk1Server } from './sdk1-app.mjs';

await buildSdk1Server().connect(new StdioServerTransport());
