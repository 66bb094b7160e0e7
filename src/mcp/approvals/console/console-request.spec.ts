import type { IncomingMessage } from 'node:http';
import { queryParam, routeParam } from './console-request.js';

const request = (url: string, originalUrl?: string) =>
  ({ url, originalUrl, headers: {} }) as unknown as IncomingMessage;

describe('console request helpers', () => {
  it('queryParam reads the first value, from the URL Express kept when it has one', () => {
    expect(queryParam(request('/approvals?cursor=b2&cursor=zz'), 'cursor')).toBe('b2');
    expect(queryParam(request('/approvals?return=%2Fapprovals%2Fasks'), 'return')).toBe(
      '/approvals/asks',
    );
    expect(queryParam(request('/approvals', '/api/approvals?cursor=c'), 'cursor')).toBe('c');
    expect(queryParam(request('/approvals'), 'cursor')).toBeUndefined();
    expect(queryParam(request('//[bad?cursor=x'), 'cursor')).toBe('x');
  });

  it('routeParam takes a string parameter the adapter matched, and nothing else', () => {
    expect(routeParam({ params: { id: 'a b' } }, 'id')).toBe('a b');
    expect(routeParam({ params: { id: ['x'] } }, 'id')).toBe('');
    expect(routeParam({}, 'id')).toBe('');
  });
});
