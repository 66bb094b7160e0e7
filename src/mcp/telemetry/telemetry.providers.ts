import type { Provider } from '@nestjs/common';
import { McpTelemetry } from './mcp-telemetry.service.js';
import { McpRegistryNames } from './registered-names.js';

/** Traces and metrics through the OpenTelemetry API (no SDK of our own). */
export const TELEMETRY_PROVIDERS: Provider[] = [McpTelemetry, McpRegistryNames];
