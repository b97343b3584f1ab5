import { ApiClient, e2eStack } from '@ris/testing';

describe('OpenAPI document and reference page', () => {
  const client = () => new ApiClient(e2eStack().gatewayUrl);

  it('serves an OpenAPI 3.1 document of every public endpoint', async () => {
    const res = await client().get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const operations = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /api/v1/campaigns',
        'GET /api/v1/campaigns',
        'GET /api/v1/campaigns/{campaignId}',
        'PATCH /api/v1/campaigns/{campaignId}',
        'POST /api/v1/referrals',
        'GET /api/v1/referrals/{referralCode}',
        'POST /api/v1/clicks',
        'POST /admin/v1/apps',
        'POST /admin/v1/apps/{appId}/keys',
        'DELETE /admin/v1/apps/{appId}/keys/{keyId}',
        'GET /healthz',
        'GET /readyz',
      ]),
    );
    // Every operation documents its error envelope and a success response (a hosted link's is its redirect).
    for (const ops of Object.values(res.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
      for (const op of Object.values(ops)) {
        expect(Object.keys(op.responses).some((s) => s.startsWith('2') || s.startsWith('3'))).toBe(true);
        expect(op.responses['500']).toBeDefined();
      }
    }
    expect(res.body.components.schemas.ErrorResponse).toBeDefined();
  });

  it('serves a readable reference page at /docs', async () => {
    const res = await fetch(`${e2eStack().gatewayUrl}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('/api/v1/openapi.json');
    const asset = await fetch(`${e2eStack().gatewayUrl}/docs/assets/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
  });
});
