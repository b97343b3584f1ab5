import { servedDocument } from './served-document';

type Schema = Record<string, unknown> & { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; items?: Schema };
type Operation = { parameters?: Array<{ name: string; in: string; schema: Schema }>; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { links?: Record<string, unknown> }> };

type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

describe('the OpenAPI document states every input rule it can', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = (await servedDocument()) as Document;
  }, 60_000);

  /** Each string without a bound, number without a maximum or array without maxItems among the inputs, by where it is. */
  function unbounded(schema: Schema, where: string, seen = new Set<string>()): string[] {
    if (schema.$ref) {
      if (seen.has(schema.$ref)) return [];
      return unbounded(doc.components.schemas[schema.$ref.split('/').pop()!], where, new Set([...seen, schema.$ref]));
    }
    const found: string[] = [];
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      for (const [i, part] of ((schema[key] as Schema[] | undefined) ?? []).entries()) found.push(...unbounded(part, `${where}/${key}[${i}]`, seen));
    }
    const types = [schema.type].flat();
    const free = schema.enum !== undefined || schema.const !== undefined;
    if (types.includes('string') && !free && schema.maxLength === undefined) found.push(`${where}: string without maxLength`);
    if ((types.includes('number') || types.includes('integer')) && !free && schema.maximum === undefined) found.push(`${where}: number without maximum`);
    if (types.includes('array')) {
      if (schema.maxItems === undefined) found.push(`${where}: array without maxItems`);
      if (schema.items) found.push(...unbounded(schema.items, `${where}[]`, seen));
    }
    for (const [name, property] of Object.entries(schema.properties ?? {})) found.push(...unbounded(property, `${where}.${name}`, seen));
    return found;
  }

  it('bounds every string, number and list a request may carry', () => {
    const found: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        for (const p of op.parameters ?? []) found.push(...unbounded(p.schema, `${method.toUpperCase()} ${path} ${p.in}.${p.name}`));
        const body = op.requestBody?.content['application/json']?.schema;
        if (body) found.push(...unbounded(body, `${method.toUpperCase()} ${path} body`));
      }
    }
    expect(found).toEqual([]);
  });

  it('states the Idempotency-Key rule the gateway enforces', () => {
    const header = doc.paths['/api/v1/campaigns'].post.parameters!.find((p) => p.name === 'Idempotency-Key')!;
    expect(header.schema).toMatchObject({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' });
  });

  it('links every create to the reads and changes of what it created, each to an operation of the document', () => {
    const creates = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method, op]) => method === 'post' && Object.keys(op.responses).includes('201'))
        .map(([, op]) => [path, op] as const),
    );
    expect(creates.length).toBeGreaterThan(10);
    for (const [path, op] of creates) {
      const links = (op.responses['201'].links ?? {}) as Record<string, { operationRef: string }>;
      expect([path, Object.keys(links).length > 0]).toEqual([path, true]);
      for (const link of Object.values(links)) {
        const [, target, method] = /^#\/paths\/(.+)\/(get|post|put|patch|delete)$/.exec(link.operationRef)!;
        expect(doc.paths[target.replace(/~1/g, '/').replace(/~0/g, '~')]?.[method]).toBeDefined();
      }
    }
  });

  it('describes a nullable campaign reward as object or null', () => {
    expect(doc.components.schemas.Campaign.properties!.refereeReward).toMatchObject({ anyOf: [{ $ref: '#/components/schemas/RewardRule' }, { type: 'null' }] });
  });
});
