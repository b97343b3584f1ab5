// The first import of every app's main.ts: tracing (when configured) must
// start before the modules it instruments are loaded. See tracing.ts.
import { startTracingIfConfigured } from './tracing';

startTracingIfConfigured();
