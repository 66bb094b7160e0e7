import { PNG_BASE64 } from '../fixtures/conformance/conformance.media.js';
import { connect, useConformanceApp, conformanceServer } from './conformance-app.js';

useConformanceApp();

describe('conformance fixture: resources', () => {
  it('lists the static resources and the template', async () => {
    const c = await connect();
    expect(await c.result('resources/list')).toEqual({
      resources: [
        {
          uri: 'test://static-text',
          name: 'static_text',
          description: 'A static text resource.',
          mimeType: 'text/plain',
        },
        {
          uri: 'test://static-binary',
          name: 'static_binary',
          description: 'A static binary resource (a 1x1 PNG).',
          mimeType: 'image/png',
        },
        {
          uri: 'test://watched-resource',
          name: 'watched_resource',
          description: 'A resource clients may subscribe to.',
          mimeType: 'text/plain',
        },
      ],
    });
    expect(await c.result('resources/templates/list')).toEqual({
      resourceTemplates: [
        {
          uriTemplate: 'test://template/{id}/data',
          name: 'template_data',
          description: 'A JSON document for any id.',
          mimeType: 'application/json',
        },
      ],
    });
  });

  it('reads test://static-text', async () => {
    const c = await connect();
    expect(await c.result('resources/read', { uri: 'test://static-text' })).toEqual({
      contents: [
        {
          uri: 'test://static-text',
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    });
  });

  it('reads test://static-binary as a PNG blob', async () => {
    const c = await connect();
    expect(await c.result('resources/read', { uri: 'test://static-binary' })).toEqual({
      contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_BASE64 }],
    });
  });

  it('reads the template for id 123', async () => {
    const c = await connect();
    const result = await c.result('resources/read', { uri: 'test://template/123/data' });
    expect(result).toEqual({
      contents: [
        {
          uri: 'test://template/123/data',
          mimeType: 'application/json',
          text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
        },
      ],
    });
    expect(JSON.parse(result.contents[0].text)).toEqual({
      id: '123',
      templateTest: true,
      data: 'Data for ID: 123',
    });
  });

  it('test://watched-resource can be read, subscribed to and unsubscribed from', async () => {
    const c = await connect();
    const uri = 'test://watched-resource';
    expect(await c.result('resources/read', { uri })).toEqual({
      contents: [
        {
          uri,
          mimeType: 'text/plain',
          text: 'This resource is watched: subscribe to hear about its updates.',
        },
      ],
    });
    expect(await c.result('resources/subscribe', { uri })).toEqual({});
    const updated = c.next((m) => m.method === 'notifications/resources/updated');
    conformanceServer().notify('notifications/resources/updated', { uri });
    expect((await updated).params).toEqual({ uri });
    expect(await c.result('resources/unsubscribe', { uri })).toEqual({});
    conformanceServer().notify('notifications/resources/updated', { uri });
    expect(c.notificationsOf('notifications/resources/updated')).toHaveLength(1);
  });
});
