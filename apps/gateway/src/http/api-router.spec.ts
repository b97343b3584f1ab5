import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@ris/logging';
import { buildOpenApiDocument, createRegistry } from '../openapi/openapi-document';
import { label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import { ApiRouter } from './api-router';
import { errorHandler } from './error-response';
import { jsonBody } from './json-body';

// A body a client may leave out (`z.object(…).optional()`): how the router
// takes it and how the document says it, on a router of its own.
describe('a route whose body is optional', () => {
  const registry = createRegistry();
  const api = new ApiRouter(registry, { basePath: '/t', security: 'none' });
  const seen: unknown[] = [];
  api.route({
    method: 'post',
    path: '/things',
    tag: 'Test',
    summary: 'Make a thing, named or not',
    body: z.object({ name: label(20).optional() }).openapi('MakeThingRequest').optional(),
    responses: { 201: { description: 'Made', schema: z.object({ name: z.string().nullable() }) } },
    handle: async ({ body }) => {
      seen.push(body);
      return { status: 201, body: { name: body?.name ?? null } };
    },
  });
  const app = express();
  app.use((_req, res, next) => {
    res.locals.requestId = 'req_test';
    next();
  });
  app.use('/t', jsonBody, api.router);
  app.use(errorHandler(createLogger('api-router-spec', 'silent')));
  let base = '';
  let server: ReturnType<typeof app.listen>;

  beforeAll(async () => {
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/t/things`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = (body?: string) =>
    fetch(base, { method: 'POST', ...(body === undefined ? {} : { body, headers: { 'Content-Type': 'application/json' } }) }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { name?: string | null; error?: { code: string } },
    }));

  it('takes no body at all, an empty object and a named one', async () => {
    expect(await post()).toEqual({ status: 201, body: { name: null } });
    expect(await post('{}')).toEqual({ status: 201, body: { name: null } });
    expect(await post('{"name":"  Production  "}')).toEqual({ status: 201, body: { name: 'Production' } });
    expect(seen).toEqual([undefined, {}, { name: 'Production' }]);
  });

  it('refuses a JSON null and a body against its schema (400), as a required body would be', async () => {
    expect(await post('null')).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR' } } });
    expect(await post('{"name":5}')).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR' } } });
    expect(await post('[]')).toMatchObject({ status: 400 });
  });

  it('is documented as a request body that is not required, with its named schema', () => {
    const operation = buildOpenApiDocument(registry).paths?.['/t/things']?.post;
    expect(operation?.requestBody).toEqual({ required: false, content: { 'application/json': { schema: { $ref: '#/components/schemas/MakeThingRequest' } } } });
  });
});
