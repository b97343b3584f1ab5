import { ApiClient, e2eStack } from '@ris/testing';

describe('OpenAPI document: the incentive endpoints', () => {
  it('documents every incentive operation with its success and error responses', async () => {
    const res = await new ApiClient(e2eStack().gatewayUrl).get('/api/v1/openapi.json');
    const paths = res.body.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
    const operations = Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    const mine = [
      'GET /api/v1/incentives/actions',
      'POST /api/v1/incentives/actions',
      'GET /api/v1/incentives/actions/{key}',
      'PATCH /api/v1/incentives/actions/{key}',
      'POST /api/v1/incentives/events',
      'POST /api/v1/incentives/events/bulk',
      'GET /api/v1/incentives/events',
      'GET /api/v1/incentives/balances',
      'GET /api/v1/incentives/balances/{userId}',
      'GET /api/v1/incentives/balances/{userId}/transactions',
      'GET /api/v1/incentives/levels',
      'POST /api/v1/incentives/levels',
      'PATCH /api/v1/incentives/levels/{level}',
      'DELETE /api/v1/incentives/levels/{level}',
      'GET /api/v1/incentives/badges',
      'POST /api/v1/incentives/badges',
      'PATCH /api/v1/incentives/badges/{key}',
      'GET /api/v1/incentives/badges/user/{userId}',
      'POST /api/v1/incentives/badges/{key}/award',
      'GET /api/v1/incentives/milestones',
      'GET /api/v1/incentives/milestones/definitions',
      'POST /api/v1/incentives/milestones/definitions',
      'GET /api/v1/incentives/milestones/definitions/{key}',
      'PATCH /api/v1/incentives/milestones/definitions/{key}',
      'DELETE /api/v1/incentives/milestones/definitions/{key}',
      'GET /api/v1/incentives/leaderboard',
      'POST /api/v1/incentives/leaderboard',
      'GET /api/v1/incentives/leaderboard/{userId}',
      'POST /api/v1/incentives/leaderboard/refresh',
      'GET /api/v1/incentives/leaderboard/snapshots',
    ];
    expect(operations).toEqual(expect.arrayContaining(mine));
    // A success response and the error envelope are on every operation (openapi.e2e.spec.ts); here: each
    // answer with a body documents that body's schema.
    for (const operation of mine) {
      const [method, path] = operation.split(' ');
      const { responses } = paths[path][method.toLowerCase()];
      const success = Object.entries(responses).find(([status]) => status.startsWith('2'));
      if (success && success[0] !== '204') expect([operation, success[1].content?.['application/json']?.schema]).toEqual([operation, expect.anything()]);
    }
    const schemas = res.body.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    expect(Object.keys(schemas.IncentiveEventResult.properties ?? {})).toEqual(
      expect.arrayContaining(['event', 'rewarded', 'reason', 'balance', 'levelUp', 'badgesAwarded', 'milestonesReached', 'duplicate']),
    );
    expect(paths['/api/v1/incentives/leaderboard'].get.responses['200'].content?.['application/json'].schema).toMatchObject({ type: 'array' });
    // Bulk items are validated one by one (a bad one fails alone), and documented as the single-event body or anything else.
    const bulk = schemas.BulkIncentiveEventsRequest as { properties: { events: { items: unknown; maxItems: number } } };
    expect(bulk.properties.events).toMatchObject({ maxItems: 1000, items: { anyOf: [{ $ref: '#/components/schemas/IncentiveEventRequest' }, {}] } });
    expect(schemas.IncentiveEventRequest).toBeDefined();
  });
});
