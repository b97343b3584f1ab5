import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// One zod for the whole gateway: the schemas that validate requests are the
// ones the OpenAPI document is generated from, so the two cannot drift.
extendZodWithOpenApi(z);

export { z };
