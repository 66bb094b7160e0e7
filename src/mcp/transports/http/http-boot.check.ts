import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpHttpAuthenticator } from '../../authentication/http-authenticator.service.js';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthenticationSettings } from '../../authentication/authentication-settings.interface.js';
import { McpWarden } from '../../engine/mcp-warden.service.js';

/**
 * The network boot check. Armed (`requireAuthorization`, on unless the app sets
 * it to false, in every environment), an HTTP server refuses to boot unless an operator
 * configured both seams, and refuses to listen on a non-loopback address
 * without authentication. A framework default is not a decision, so a tool
 * authorizer with `authorizerSource: 'default'` does not count. Disarmed, it
 * logs what is unguarded instead of going quiet.
 */
@Injectable()
export class McpHttpBootCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpHttp');

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpAuthenticationSettings,
    private readonly server: McpWarden,
    private readonly authenticator: McpHttpAuthenticator,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    const missing: string[] = [];
    if (!this.server.authorizationConfigured()) {
      missing.push("a configured tool authorizer (authorizer with authorizerSource: 'configured')");
    }
    if (!this.server.readAuthorizationConfigured()) {
      missing.push('a read authorizer (readAuthorizer)');
    }
    if (this.options.requireAuthorization && missing.length > 0) {
      throw new Error(`MCP HTTP transport refuses to boot: missing ${missing.join(' and ')}`);
    }
    if (!this.options.requireAuthorization) {
      if (!this.authenticator.enabled)
        missing.push('authentication (http.auth or http.authenticate)');
      if (missing.length > 0) {
        this.logger.warn(`network boot check disarmed; unguarded: ${missing.join(', ')}`);
      }
    }
    this.checkAddressOnListen();
  }

  /* The bound address is known only once the app listens, after boot. */
  private checkAddressOnListen(): void {
    const http = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!http || typeof http.once !== 'function' || this.authenticator.enabled) return;
    http.once('listening', () => {
      const address = http.address() as AddressInfo | string | null;
      if (!address || typeof address === 'string' || isLoopback(address.address)) return;
      const problem = `MCP HTTP transport on ${address.address} (not loopback) has no authentication: set http.auth or http.authenticate`;
      if (!this.options.requireAuthorization) {
        this.logger.warn(`${problem}; serving anyway because the boot check is disarmed`);
        return;
      }
      http.close();
      // Nest's listen() rejects on the server's 'error' while it is starting.
      http.emit('error', new Error(`refuses to boot: ${problem}`));
    });
  }
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
