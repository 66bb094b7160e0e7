import { eraServes } from '../../core/protocol/era.constants.js';
import { McpAuthorizationService } from '../../authorization/mcp-authorization.service.js';
import type { McpModuleOptions } from '../../options/mcp-options.interface.js';
import { resolveMcpOptions } from '../../options/options.resolver.js';
import type { McpRequest } from '../../engine/dispatch/mcp-request.interface.js';
import { McpInputRound } from '../../core/multi-round-trip/input-round.js';
import { McpInputRounds } from './multi-round-trip/input-rounds.service.js';
import { MemoryNonceStore } from '../../core/stores/memory-nonce.store.js';
import { McpRequestStateSealer } from './multi-round-trip/request-state.sealer.js';
import { McpModernEra } from './modern-era.service.js';

function era(extra: Partial<McpModuleOptions> = {}): McpModernEra {
  const options = resolveMcpOptions({
    name: 'warden',
    version: '1.2.3',
    cacheTtlMs: 30_000,
    ...extra,
  });
  const rounds = new McpInputRounds(
    new McpRequestStateSealer(options),
    new MemoryNonceStore(10),
    options,
  );
  return new McpModernEra(options, rounds, new McpAuthorizationService(options));
}

function request(fields: Partial<McpRequest>): McpRequest {
  return { id: 1, params: {}, ...fields } as McpRequest;
}

describe('McpModernEra', () => {
  describe('which methods each era serves (eraServes)', () => {
    it.each([
      'initialize',
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'resources/unsubscribe',
    ])('does not serve the removed method %s in the modern era', (method) => {
      expect(eraServes(method, 'modern')).toBe(false);
      expect(eraServes(method, 'legacy')).toBe(true);
    });

    it.each(['server/discover', 'subscriptions/listen'])(
      'serves %s in the modern era only',
      (method) => {
        expect(eraServes(method, 'modern')).toBe(true);
        expect(eraServes(method, 'legacy')).toBe(false);
      },
    );

    it.each(['tools/call', 'tools/list', 'resources/read', 'prompts/get', 'completion/complete'])(
      'serves %s in both eras',
      (method) => {
        expect(eraServes(method, 'modern')).toBe(true);
        expect(eraServes(method, 'legacy')).toBe(true);
      },
    );
  });

  describe('error()', () => {
    it('maps "resource not found" -32002 to -32602 and keeps message and data', () => {
      const response = {
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32002, message: 'Resource not found', data: { uri: 'notes://9' } },
      };
      expect(era().error(response)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32602, message: 'Resource not found', data: { uri: 'notes://9' } },
      });
      expect(response.error.code).toBe(-32002);
    });

    it.each([
      ['another error', { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nope' } }],
      ['a result', { jsonrpc: '2.0', id: 1, result: { code: -32002 } }],
    ])('returns %s unchanged', (_label, response) => {
      expect(era().error(response)).toBe(response);
    });
  });

  describe('result()', () => {
    it('shapes a cacheable result as complete, public without a caller or authorizer', async () => {
      const shaped = await era().result(request({ method: 'tools/list' }), { tools: [] });
      expect(shaped).toEqual({
        tools: [],
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'warden', version: '1.2.3' } },
        ttlMs: 30_000,
        cacheScope: 'public',
      });
    });

    it('makes a cacheable result private for an authenticated caller', async () => {
      const principal = { subject: 'alice', scopes: [] };
      const shaped = await era().result(request({ method: 'tools/list', principal }), {});
      expect(shaped).toMatchObject({ cacheScope: 'private' });
    });

    it('makes a cacheable result private when a seam decides per caller', async () => {
      const shaped = await era({ readAuthorizer: () => ({ kind: 'allow' }) }).result(
        request({ method: 'resources/read' }),
        {},
      );
      expect(shaped).toMatchObject({ cacheScope: 'private' });
    });

    it('gives a non-cacheable result no cache hint', async () => {
      const shaped = await era().result(request({ method: 'tools/call' }), { content: [] });
      expect(shaped).not.toHaveProperty('ttlMs');
      expect(shaped).toMatchObject({ resultType: 'complete' });
    });

    it('answers input-required when the round asked, whatever the handler returned', async () => {
      const input = new McpInputRound({}, {}, false);
      input.ask('approval', { method: 'elicitation/create', params: { message: 'ok?' } });
      const shaped = await era().result(
        request({ method: 'tools/call', params: { name: 't' }, input }),
        { content: [] },
      );
      expect(shaped).toEqual({
        resultType: 'input_required',
        inputRequests: { approval: { method: 'elicitation/create', params: { message: 'ok?' } } },
        requestState: expect.any(String),
      });
    });
  });

  describe('round()', () => {
    it('opens a round only for the methods that may answer input-required', async () => {
      const modern = era();
      for (const method of ['tools/call', 'prompts/get', 'resources/read']) {
        await expect(modern.round(method, {}, {}, undefined)).resolves.toBeInstanceOf(
          McpInputRound,
        );
      }
      expect(modern.round('tools/list', {}, {}, undefined)).toBeUndefined();
    });
  });
});
